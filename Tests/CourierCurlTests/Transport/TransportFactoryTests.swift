import Courier
import CourierConfiguration
import CourierCurl
import CourierURLSession
import Testing

@Suite struct TransportFactoryTests {
    @Test func curlMakesACurlTransport() async throws {
        let transport = try TransportFactory.make(kind: .curl)
        #expect(transport is CurlTransport)
        await transport.shutdown()
    }

    @Test func urlsessionMakesAURLSessionTransport() async throws {
        let transport = try TransportFactory.make(kind: .urlsession)
        #expect(transport is URLSessionTransport)
        await transport.shutdown()
    }

    @Test func theConfigurationAndItsEnvironmentOverrideChoose() async throws {
        let configured = try Configuration(transport: .urlsession).makeTransport()
        #expect(configured is URLSessionTransport)
        let overridden = try Configuration(transport: .urlsession)
            .applyingEnvironment(["COURIER_TRANSPORT": "curl"])
        let transport = try TransportFactory.make(for: overridden)
        #expect(transport is CurlTransport)
        await transport.shutdown()
    }

    @Test func curlSettingsReachTheTransport() async throws {
        let transport = try TransportFactory.make(
            kind: .curl, curl: .init(preferHTTP2: false, userAgent: "probe"))
        let curl = try #require(transport as? CurlTransport)
        #expect(curl.configuration.userAgent == "probe")
        #expect(!curl.configuration.preferHTTP2)
        await curl.shutdown()
    }
}
