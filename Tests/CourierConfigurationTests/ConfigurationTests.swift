import Courier
import CourierConfiguration
import CourierInterceptors
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

func configurationFixture(_ name: String) -> URL {
    fixtures.appendingPathComponent("Configuration").appendingPathComponent(name)
}

struct ConfigurationTests {
    @Test func loadsEveryField() throws {
        let configuration = try Configuration.load(from: configurationFixture("full.json"))
        #expect(configuration.baseURL == URL(string: "https://api.example.com/v1"))
        #expect(configuration.transport == .curl)
        #expect(configuration.timeouts == Configuration.Timeouts(connect: .seconds(5), idle: .seconds(30)))
        #expect(
            configuration.retry
                == Configuration.Retry(maxAttempts: 4, baseDelay: .seconds(0.25), maxDelay: .seconds(8)))
        #expect(configuration.defaultHeaders == ["Accept": "application/json", "X-Client": "courier"])
        #expect(configuration.maxResponseBytes == 1_048_576)
        #expect(configuration.transferOptions.connectTimeout == .seconds(5))
        #expect(configuration.transferOptions.totalTimeout == nil)
    }

    @Test func everyFieldIsOptional() throws {
        let configuration = try Configuration.load(from: configurationFixture("empty.json"))
        #expect(configuration == Configuration())
        #expect(configuration.transport == .urlsession)
        #expect(configuration.retry.maxAttempts == 3)
    }

    @Test(arguments: [
        ("missing.json", "not found"),
        ("malformed.json", "invalid configuration"),
        ("wrong-type.json", "retry.maxAttempts"),
        ("invalid-transport-name.json", "transport \"carrier pigeon\" is not a transport name"),
        ("zero-attempts.json", "retry.maxAttempts must be between 1 and 100"),
        ("bad-base-url.json", "baseURL must be an absolute http or https URL"),
        ("negative-timeout.json", "timeouts.idle must be a positive number"),
    ])
    func badConfigurationsGiveClearErrors(file: String, expected: String) {
        #expect {
            try Configuration.load(from: configurationFixture(file))
        } throws: { error in
            guard let error = error as? CourierError else { return false }
            return error.code == .invalidConfiguration && error.message.contains(expected)
                && error.message.contains(file)
        }
    }

    @Test func malformedJSONSaysWhere() {
        let error = #expect(throws: CourierError.self) {
            try Configuration.load(from: configurationFixture("malformed.json"))
        }
        // The parser reports where the missing comma should be.
        #expect(error?.message.contains("line 3, column 30") == true)
    }

    @Test func environmentOverridesTransport() throws {
        let base = Configuration(transport: .urlsession)
        #expect(try base.applyingEnvironment(["COURIER_TRANSPORT": "curl"]).transport == .curl)
        #expect(try base.applyingEnvironment(["COURIER_TRANSPORT": " CURL "]).transport == .curl)
        #expect(try base.applyingEnvironment([:]).transport == .urlsession)
        #expect(try base.applyingEnvironment(["COURIER_TRANSPORT": ""]).transport == .urlsession)
        // Any transport's name is taken here; whether the program links it is known when it is made.
        #expect(try base.applyingEnvironment(["COURIER_TRANSPORT": "grpc"]).transport.name == "grpc")
        #expect {
            try base.applyingEnvironment(["COURIER_TRANSPORT": "grpc over carrier pigeon"])
        } throws: { error in
            let error = error as? CourierError
            return error?.code == .invalidConfiguration
                && error?.message.contains("COURIER_TRANSPORT") == true
        }
    }

    @Test func roundTripsThroughJSON() throws {
        let configuration = Configuration(
            baseURL: URL(string: "http://127.0.0.1:8080"), transport: .curl, defaultHeaders: ["A": "b"])
        let data = try JSONEncoder().encode(configuration)
        #expect(try Configuration.decode(data) == configuration)
    }

    @Test func managerFromConfiguration() async throws {
        let configuration = try Configuration.load(from: configurationFixture("full.json"))
        let stub = StubTransport()
        stub.on(.get, "/v1/feed", .json(#"{"posts":[]}"#))
        let manager = NetworkManager(configuration: configuration, transport: stub)
        #expect(manager.baseURL == configuration.baseURL)
        #expect(manager.transferOptions.maxResponseBytes == 1_048_576)
        #expect(manager.interceptors.first is RetryPolicy)
        let response = try await manager.sendRaw(URLRequest(url: URL(string: "feed")!))
        #expect(response.request.headers["X-Client"] == "courier")
    }
}
