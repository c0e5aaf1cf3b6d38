import Courier
import CourierConfiguration
import CourierContract
import CourierJSON
import CourierTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A model whose JSON keys are snake_case and whose dates are seconds since 1970.
struct Account: Codable, Sendable, Equatable {
    var userName: String
    var createdAt: Date
}

/// What a server answers when nothing is found.
struct Missing: Codable, Sendable, Equatable {
    var reason: String
}

/// Endpoints that make their own choices, overriding the manager's.
enum ChoosyEndpoint: APIConfigurable {
    case lookup
    case strictText
    case account
    case plain

    var method: HTTPMethod { .get }
    var path: EndpointPath {
        switch self {
        case .lookup: "/lookup"
        case .strictText: "/text"
        case .account, .plain: "/account"
        }
    }

    var validation: Validation? {
        switch self {
        case .lookup: Validation(acceptableStatusCodes: [200, 404])
        case .strictText: Validation(acceptableContentTypes: ["application/json"])
        case .account, .plain: nil
        }
    }

    var decoder: (any ResponseBodyDecoder)? {
        guard case .account = self else { return nil }
        return EndpointChoicesTests.snakeSeconds
    }
}

/// The same choices on typed endpoints.
enum ChoosyAPI: API {
    static func lookup() -> Endpoint<Missing> {
        endpoint(.get, "/lookup", "Look something up", errors: [404]) {}
            .validated(by: Validation(acceptableStatusCodes: [200, 404]))
    }

    static func strictText() -> Endpoint<String> {
        endpoint(.get, "/text", "Some text") {}.validated(
            by: Validation(acceptableContentTypes: ["application/json"]))
    }

    static func account() -> Endpoint<Account> {
        endpoint(.get, "/account", "The account") {}.decoded(with: EndpointChoicesTests.snakeSeconds)
    }

    static func plainAccount() -> Endpoint<Account> {
        endpoint(.get, "/account", "The account, decoded as the manager does") {}
    }

    static var samples: [any EndpointDescribing] { [lookup(), strictText(), account()] }
}

struct EndpointChoicesTests {
    static let snakeSeconds: CourierJSONDecoder = {
        var decoder = CourierJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()

    static let accountJSON = #"{"user_name":"ada","created_at":86400}"#
    static let account = Account(userName: "ada", createdAt: Date(timeIntervalSince1970: 86400))

    private func stub() -> StubTransport {
        let stub = StubTransport()
        stub.on(.get, "/lookup", .json(#"{"reason":"gone"}"#, status: 404))
        stub.on(.get, "/text", .text("plain words"))
        stub.on(.get, "/account", .json(Self.accountJSON))
        return stub
    }

    @Test func anEndpointsOwnStatusesWinOverTheManagers() async throws {
        let manager = makeManager(stub())
        #expect(
            try await manager.send(ChoosyEndpoint.lookup, as: Missing.self).value == Missing(reason: "gone"))
        #expect(try await manager.send(ChoosyAPI.lookup()).status == 404)
        let strict = makeManager(stub(), validation: Validation(acceptableStatusCodes: [200]))
        #expect(try await strict.send(ChoosyAPI.lookup()).value == Missing(reason: "gone"))
    }

    @Test func anEndpointsOwnContentTypesWinOverTheManagers() async throws {
        let manager = makeManager(stub())
        let raw = await #expect(throws: CourierError.self) {
            try await manager.send(ChoosyEndpoint.strictText, as: String.self)
        }
        #expect(raw?.code == .unacceptableContentType)
        let typed = await #expect(throws: CourierError.self) {
            try await manager.send(ChoosyAPI.strictText())
        }
        #expect(typed?.code == .unacceptableContentType)
        let rawBytes = await #expect(throws: CourierError.self) {
            try await manager.sendRaw(ChoosyAPI.strictText())
        }
        #expect(rawBytes?.code == .unacceptableContentType)
    }

    @Test func anEndpointsOwnDecoderWinsOverTheManagers() async throws {
        let manager = makeManager(stub())
        #expect(try await manager.send(ChoosyEndpoint.account, as: Account.self).value == Self.account)
        #expect(try await manager.send(ChoosyAPI.account()).value == Self.account)
        let plain = await #expect(throws: CourierError.self) {
            try await manager.send(ChoosyAPI.plainAccount())
        }
        #expect(plain?.code == .decodingFailed, "the manager's decoder expects camelCase keys")
        let untyped = await #expect(throws: CourierError.self) {
            try await manager.send(ChoosyEndpoint.plain, as: Account.self)
        }
        #expect(untyped?.code == .decodingFailed)
    }

    @Test func completionHandlersUseTheEndpointsChoicesToo() async throws {
        let manager = makeManager(stub())
        let value: Account = try await withCheckedThrowingContinuation { continuation in
            manager.request(ChoosyAPI.account()) { result in
                continuation.resume(with: result.map(\.value).mapError { $0 as any Error })
            }
        }
        #expect(value == Self.account)
    }

    @Test func courierJSONChoosesKeyAndDateStrategies() async throws {
        let configuration = try Configuration.decode(
            Data(
                #"{ "baseURL": "https://api.test", "decoding": { "keys": "convertFromSnakeCase", "dates": "secondsSince1970" } }"#
                    .utf8))
        #expect(configuration.decoding.keys == .convertFromSnakeCase)
        #expect(configuration.decoding.dates == .secondsSince1970)
        let manager = NetworkManager(configuration: configuration, transport: stub())
        #expect(try await manager.send(ChoosyAPI.plainAccount()).value == Self.account)
    }

    @Test func aDecoderGivenToInitWinsOverTheConfiguredStrategies() async throws {
        let configuration = try Configuration.decode(
            Data(#"{ "baseURL": "https://api.test", "decoding": { "keys": "convertFromSnakeCase" } }"#.utf8))
        let manager = NetworkManager(
            configuration: configuration, transport: stub(), decoder: JSONDecoder.courier)
        let error = await #expect(throws: CourierError.self) {
            try await manager.send(ChoosyAPI.plainAccount())
        }
        #expect(error?.code == .decodingFailed)
    }

    @Test func theDefaultStrategiesAreTheManagersDefaults() throws {
        let configuration = try Configuration.decode(Data("{}".utf8))
        #expect(configuration.decoding == Configuration.Decoding(keys: .useDefaultKeys, dates: .iso8601))
    }

    @Test(arguments: [
        (#"{ "decoding": { "keys": "kebab" } }"#, "decoding.keys"),
        (#"{ "decoding": { "dates": "julian" } }"#, "decoding.dates"),
        (#"{ "decoding": { "dats": "iso8601" } }"#, "did you mean \"dates\""),
    ])
    func aBadStrategyIsRefusedByName(json: String, message: String) {
        let error = #expect(throws: CourierError.self) { try Configuration.decode(Data(json.utf8)) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
    }
}
