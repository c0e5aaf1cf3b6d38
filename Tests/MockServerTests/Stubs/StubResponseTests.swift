import CourierPrimitives
import Foundation
import TestSupport
import Testing

@testable import MockServer

struct StubResponseTests {
    private func serve(_ response: String, target: String = "/r") async throws -> RawResponse {
        try await timedServe(response, target: target).response
    }

    /// The response and how long the request alone took (not the server's start or the stubs' loading).
    private func timedServe(_ response: String, target: String = "/r") async throws
        -> (response: RawResponse, elapsed: Duration)
    {
        try await withMockServer { server in
            try server.addStubs(json: Data(#"{"request": {"urlPath": "/r"}, "response": \#(response)}"#.utf8))
            let clock = ContinuousClock()
            let start = clock.now
            let answer = try perform(server, target)
            return (answer, clock.now - start)
        }
    }

    @Test func statusMessageHeadersAndBody() async throws {
        let response = try await serve(
            #"{"status": 418, "statusMessage": "Short and stout", "headers": {"X-One": "1", "Set-Cookie": ["a=1", "b=2"]}, "body": "tea"}"#
        )
        #expect(response.statusLine == "HTTP/1.1 418 Short and stout")
        #expect(response.header("X-One") == "1")
        #expect(response.headers.filter { $0.0 == "Set-Cookie" }.map(\.1) == ["a=1", "b=2"])
        #expect(response.text == "tea")
    }

    @Test func jsonBodyIsSerialised() async throws {
        let response = try await serve(#"{"jsonBody": {"ok": true, "n": [1, 2]}}"#)
        #expect(json(response)["ok"] as? Bool == true)
        #expect((json(response)["n"] as? [Int]) == [1, 2])
    }

    @Test func jsonBodyIsServedAsJSONUnlessTheMappingSaysOtherwise() async throws {
        let plain = try await serve(#"{"jsonBody": {"ok": true}}"#)
        #expect(plain.header("Content-Type") == "application/json")
        let own = try await serve(
            #"{"jsonBody": {"ok": true}, "headers": {"content-type": "application/vnd.api+json"}}"#)
        #expect(
            own.headers.filter { $0.0.lowercased() == "content-type" }.map(\.1) == [
                "application/vnd.api+json"
            ])
    }

    @Test func base64BodyIsDecoded() async throws {
        let response = try await serve(#"{"base64Body": "AAEC/w=="}"#)
        #expect(response.body == [0, 1, 2, 255])
    }

    @Test func fixedDelayHoldsTheResponse() async throws {
        let (response, elapsed) = try await timedServe(#"{"body": "late", "fixedDelayMilliseconds": 150}"#)
        #expect(response.text == "late")
        #expect(elapsed >= .milliseconds(150))
    }

    /// A delay cannot be shorter than the distribution's least value: a server that ignored the
    /// distribution answers a loopback request in well under that.
    @Test(arguments: [
        (#"{"type": "uniform", "lower": 200, "upper": 250}"#, 200),
        (#"{"type": "lognormal", "median": 300, "sigma": 0.01, "maxValue": 400}"#, 200),
    ])
    func delayDistributionsAreApplied(_ distribution: String, atLeast milliseconds: Int) async throws {
        let (response, elapsed) = try await timedServe(
            #"{"body": "d", "delayDistribution": \#(distribution)}"#)
        #expect(response.text == "d")
        #expect(elapsed >= .milliseconds(milliseconds))
    }

    @Test func chunkedDribbleDelaySendsChunks() async throws {
        let response = try await serve(
            #"{"body": "abcdefgh", "chunkedDribbleDelay": {"numberOfChunks": 4, "totalDuration": 100}}"#)
        #expect(response.header("Transfer-Encoding") == "chunked")
        #expect(response.chunkCount == 4)
        #expect(response.text == "abcdefgh")
    }

    @Test(arguments: [
        "CONNECTION_RESET_BY_PEER", "EMPTY_RESPONSE", "MALFORMED_RESPONSE_CHUNK", "RANDOM_DATA_THEN_CLOSE",
    ])
    func faultsFromMappings(_ fault: String) async throws {
        try await withMockServer { server in
            try server.addStubs(
                json: Data(#"{"request": {"url": "/f"}, "response": {"fault": "\#(fault)"}}"#.utf8))
            #expect(throws: (any Error).self) { try perform(server, "/f") }
        }
    }

    @Test func priorityOneBeatsDefaultAndNewestWinsTies() async throws {
        try await withMockServer { server in
            try server.addStubs(
                json: Data(
                    #"{"priority": 1, "request": {"urlPath": "/p"}, "response": {"body": "first"}}"#.utf8))
            try server.addStubs(
                json: Data(#"{"request": {"urlPath": "/p"}, "response": {"body": "default"}}"#.utf8))
            #expect(try perform(server, "/p").text == "first")
            try server.addStubs(
                json: Data(
                    #"{"priority": 1, "request": {"urlPath": "/p"}, "response": {"body": "newest"}}"#.utf8))
            #expect(try perform(server, "/p").text == "newest")
        }
    }

    @Test func stubsWinOverHandlers() async throws {
        let handler = ClosureHandler { _ in .text("handler", status: 200) }
        try await withMockServer(handlers: [handler]) { server in
            try server.addStubs(
                json: Data(#"{"request": {"urlPath": "/s"}, "response": {"body": "stub"}}"#.utf8))
            #expect(try perform(server, "/s").text == "stub")
            #expect(try perform(server, "/other").text == "handler")
        }
    }

    @Test func unmatchedRequestNamesTheClosestStub() async throws {
        try await withMockServer { server in
            try server.addStubs(
                json: Data(
                    #"{"name": "create-user", "request": {"method": "POST", "urlPath": "/users", "headers": {"Content-Type": {"contains": "json"}}}, "response": {"status": 201}}"#
                        .utf8))
            try server.addStubs(
                json: Data(
                    #"{"request": {"method": "GET", "urlPath": "/elsewhere/far"}, "response": {}}"#.utf8))
            let response = try perform(
                server, "POST", "/users", headers: [("Content-Type", "text/plain")], body: "x")
            #expect(response.status == 404)
            #expect(response.text.contains("Closest stub: \"create-user\" (POST /users)"))
            #expect(
                response.text.contains(
                    "header Content-Type: expected contains \"json\" but was \"text/plain\""))
        }
    }

    @Test func mappingsFolderIsLoadedWithBodyFiles() async throws {
        var configuration = MockServerConfiguration()
        configuration.mappingsDirectory = Fixtures.wiremock
        try await withMockServer(configuration: configuration) { server in
            #expect(server.stubCount == 3)
            let hello = try perform(server, "/fixture/hello")
            #expect(hello.text == #"{"message":"hello from a file"}"#)
            #expect(hello.header("Content-Type") == "application/json")
            let order = try perform(server, "POST", "/fixture/orders", body: #"{"items": [{"sku": "A1"}]}"#)
            #expect(order.status == 201)
            #expect(json(order)["created"] as? Bool == true)
            #expect(try perform(server, "PUT", "/fixture/files/x").text == "hello file")
            // Range on a body file.
            let partial = try perform(server, "/fixture/hello", headers: [("Range", "bytes=0-9")])
            #expect(partial.status == 206)
            #expect(partial.text == #"{"message""#)
        }
    }

    @Test func invalidMappingsFolderFailsToStart() throws {
        var configuration = MockServerConfiguration()
        configuration.mappingsDirectory = Fixtures.root.appendingPathComponent("broken")
        let server = MockServer(configuration: configuration)
        do {
            try server.start()
            server.shutdown()
            Issue.record("a broken mapping folder was accepted")
        } catch let error as MockServerError {
            #expect(error.message.contains("bad.json"))
            #expect(error.message.contains("fault"))
        }
    }

    @Test func aMappingFileWithAnUnimplementedTransformerFailsToStart() throws {
        var configuration = MockServerConfiguration()
        configuration.mappingsDirectory = Fixtures.root.appendingPathComponent("unimplemented")
        let server = MockServer(configuration: configuration)
        let error = #expect(throws: MockServerError.self) { try server.start() }
        server.shutdown()
        #expect(error?.message.contains("templated.json") == true, "\(String(describing: error))")
        #expect(error?.message.contains("response.transformers") == true, "\(String(describing: error))")
    }
}

/// A 1xx status is an interim answer: a stub or handler that ended with one left the client waiting for
/// the final response until the connection idled out.
struct InterimStatusTests {
    @Test(arguments: [100, 101, 103, 199])
    func aStubWithAnInterimStatusIsRefused(status: Int) throws {
        let mapping = try JSONValue.parse(Data(#"{"status": \#(status), "body": "x"}"#.utf8))
        let error = #expect(throws: ValuePattern.InvalidMapping.self) {
            try ResponseDefinition.parse(mapping, at: "response")
        }
        #expect(
            error?.description.contains("final status code (200-999)") == true, "\(String(describing: error))"
        )
        let accepted = try JSONValue.parse(Data(#"{"status": 200}"#.utf8))
        #expect(try ResponseDefinition.parse(accepted, at: "response").status == 200)
    }

    @Test func aHandlerAnsweringAnInterimStatusGets500() async throws {
        let handler = ClosureHandler { _ in .text("early", status: 103) }
        try await withMockServer(handlers: [handler]) { server throws in
            let response = try perform(server, "/hints")
            #expect(response.status == 500)
        }
    }
}

/// A dribbled body is held in memory: past 64 MiB the server says so with a 500 instead of reading a
/// whole multi-GiB file into memory.
struct DribbleLimitTests {
    @Test func aDribbledBodyOverTheLimitIsA500ThatSaysWhy() async throws {
        let handler = ClosureHandler { request in
            let size: Int64 = request.path == "/huge" ? (64 << 20) + 1 : 10
            var response = ServerResponse(
                status: 200, body: .generated(length: size) { _, count in Data(count: count) })
            response.dribble = ChunkedDribble(numberOfChunks: 2, totalDuration: .milliseconds(20))
            return response
        }
        try await withMockServer(handlers: [handler]) { server throws in
            let huge = try perform(server, "/huge")
            #expect(huge.status == 500)
            #expect(
                huge.text.contains("chunkedDribbleDelay serves bodies up to 67108864 bytes"), "\(huge.text)")
            let small = try perform(server, "/small")
            #expect(small.status == 200)
            #expect(small.body.count == 10)
        }
    }
}

struct ScenarioTests {
    static let mappings = #"""
        {"mappings": [
          {"scenarioName": "todo", "requiredScenarioState": "Started",
           "request": {"method": "GET", "url": "/todo"}, "response": {"jsonBody": ["buy milk"]}},
          {"scenarioName": "todo", "requiredScenarioState": "Started", "newScenarioState": "Cancel added",
           "request": {"method": "POST", "url": "/todo"}, "response": {"status": 201}},
          {"scenarioName": "todo", "requiredScenarioState": "Cancel added",
           "request": {"method": "GET", "url": "/todo"}, "response": {"jsonBody": ["buy milk", "cancel newspaper"]}}
        ]}
        """#

    @Test func stateTransitionsChangeTheAnswer() async throws {
        try await withMockServer { server in
            try server.addStubs(json: Data(Self.mappings.utf8))
            #expect(try perform(server, "/todo").text == #"["buy milk"]"#)
            #expect(try perform(server, "POST", "/todo", body: "x").status == 201)
            #expect(try perform(server, "/todo").text == #"["buy milk","cancel newspaper"]"#)
            // The POST only applies in the Started state.
            let again = try perform(server, "POST", "/todo", body: "x")
            #expect(again.status == 404)
            #expect(again.text.contains("scenario todo: requires state Started but is Cancel added"))
        }
    }

    @Test func adminScenarioRoutes() async throws {
        try await withMockServer { server in
            try server.addStubs(json: Data(Self.mappings.utf8))
            let list = json(try perform(server, "/__admin/scenarios"))["scenarios"] as? [[String: Any]]
            #expect(list?.first?["name"] as? String == "todo")
            #expect(list?.first?["state"] as? String == "Started")
            #expect(Set(list?.first?["possibleStates"] as? [String] ?? []) == ["Started", "Cancel added"])

            let set = try perform(
                server, "PUT", "/__admin/scenarios/todo/state", body: #"{"state": "Cancel added"}"#)
            #expect(set.status == 200)
            #expect(try perform(server, "/todo").text.contains("cancel newspaper"))
            #expect(try perform(server, "POST", "/__admin/scenarios/reset").status == 200)
            #expect(try perform(server, "/todo").text == #"["buy milk"]"#)
            #expect(
                try perform(server, "PUT", "/__admin/scenarios/nope/state", body: #"{"state": "x"}"#).status
                    == 404)
        }
    }
}

/// Delays beyond a day are refused when the mapping is read (found by the mapping fuzzer: a huge
/// `fixedDelayMilliseconds` overflowed `Duration` and trapped when the stub was served).
struct DelayLimitTests {
    @Test(arguments: [
        (#"{"fixedDelayMilliseconds": 4.4e60}"#, "mapping.response.fixedDelayMilliseconds"),
        (
            #"{"delayDistribution": {"type": "uniform", "lower": 1, "upper": 1e300}}"#,
            "mapping.response.delayDistribution"
        ),
        (
            #"{"delayDistribution": {"type": "fixed", "milliseconds": 1e20}}"#,
            "mapping.response.delayDistribution"
        ),
        (
            #"{"chunkedDribbleDelay": {"numberOfChunks": 2, "totalDuration": 1e300}}"#,
            "mapping.response.chunkedDribbleDelay"
        ),
    ])
    func hugeDelaysAreRefused(_ response: String, _ path: String) async throws {
        try await withMockServer { server in
            let refused = try perform(
                server, "POST", "/__admin/mappings",
                body: #"{"request": {"url": "/d"}, "response": \#(response)}"#)
            #expect(refused.status == 422, "\(refused.text)")
            #expect(refused.text.contains(path), "\(refused.text)")
            let settings = try perform(server, "POST", "/__admin/settings", body: #"{"fixedDelay": 1e300}"#)
            #expect(settings.status == 422, "\(settings.text)")
        }
    }

    /// A lognormal sample has no upper bound of its own: it is cut at a day.
    @Test func lognormalSamplesStayFinite() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1000 {
            let sample = ResponseDefinition.sample(
                .lognormal(median: 80_000_000, sigma: 50, maxValue: nil), using: &generator)
            #expect(sample <= ResponseDefinition.maxDelayMilliseconds)
        }
    }
}
