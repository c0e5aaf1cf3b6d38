import Courier
import CourierConfiguration
import CourierCurl
import CourierURLSession
import Foundation
import Testing

/// A configuration chooses its transport by name among the ones a program links.
@Suite struct TransportChoiceTests {
    static let linked: [any NamedTransport.Type] = [CurlTransport.self, URLSessionTransport.self]

    @Test func curlMakesACurlTransport() async throws {
        let transport = try Configuration(transport: .curl).makeTransport(choosingFrom: Self.linked)
        #expect(transport is CurlTransport)
        await transport.shutdown()
    }

    @Test func urlsessionMakesAURLSessionTransport() async throws {
        let transport = try Configuration(transport: .urlsession).makeTransport(choosingFrom: Self.linked)
        #expect(transport is URLSessionTransport)
        await transport.shutdown()
    }

    @Test func theEnvironmentOverridesTheFile() async throws {
        let overridden = try Configuration(transport: .urlsession)
            .applyingEnvironment(["COURIER_TRANSPORT": "curl"])
        let transport = try overridden.makeTransport(choosingFrom: Self.linked)
        #expect(transport is CurlTransport)
        await transport.shutdown()
    }

    @Test func aTransportThatIsNotLinkedIsRefusedNamingTheLinkedOnes() throws {
        let configuration = try Configuration(transport: TransportKind(name: "carrier-pigeon"))
        let error = #expect(throws: CourierError.self) {
            try configuration.makeTransport(choosingFrom: Self.linked)
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("no transport named \"carrier-pigeon\"") == true)
        #expect(error?.message.contains("curl, urlsession") == true)
        // Only what is linked can be chosen: a program that links one transport offers only it.
        #expect(throws: CourierError.self) {
            try Configuration(transport: .curl).makeTransport(choosingFrom: [URLSessionTransport.self])
        }
    }

    /// A transport from outside Courier is chosen the same way.
    struct PigeonTransport: NamedTransport {
        static var transportName: String { "carrier-pigeon" }
        static func make(proxy: ProxySettings?) -> PigeonTransport { PigeonTransport() }
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            throw CourierError(.transferFailed, "the pigeon is away")
        }
    }

    @Test func aThirdTransportIsChosenByItsName() throws {
        let configuration = try Configuration(transport: TransportKind(name: "Carrier-Pigeon"))
        #expect(
            try configuration.makeTransport(choosingFrom: Self.linked + [PigeonTransport.self])
                is PigeonTransport)
    }

    @Test(arguments: ["", "two words", "curl/7", "ü"])
    func aNameThatIsNoNameIsRefused(name: String) {
        #expect(throws: CourierError.self) { try TransportKind(name: name) }
    }
}
