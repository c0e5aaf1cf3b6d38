import Courier
import CourierContract
import CourierCurl
import CourierPrimitives
import CourierTesting
import CourierTool
import Foundation
import MockServer
import Testing

/// An API with one operation declared but left out of `samples`.
enum ShelfAPI: API {
    static var declaredOperations: [String] { ["books", "remove"] }

    static var books: Endpoint<[String]> { endpoint(.get, "/books", "Every book") {} }

    static func remove(id: String) -> Endpoint<EmptyResponse> {
        endpoint(.delete, "/books/{id}", "Remove a book", status: 204) { Path("id", id, .identifier) }
    }

    static var samples: [any EndpointDescribing] { [books] }
}

/// An API that counts how often its declarations are read.
enum CountedAPI: API {
    static let reads = Locked(0)
    static let sampleReads = Locked(0)
    static var declaredOperations: [String] {
        reads.withLock { $0 += 1 }
        return ["items"]
    }

    static var items: Endpoint<[String]> { endpoint(.get, "/items", "Every item") {} }

    static var samples: [any EndpointDescribing] {
        sampleReads.withLock { $0 += 1 }
        return [items]
    }
}

/// An operation declared but without a sample is reported by the tool: `verify` fails on it and
/// `mock` warns of it when it starts.
@Suite struct DeclarationProblemTests {
    static let problem =
        "shelf.remove is declared but has no sample in ShelfAPI.samples: it is missing from the OpenAPI "
        + "document, the mock's routing and verification"

    @Test func theToolKnowsTheProblem() {
        let tool = CourierTool(name: "shelf", apis: [ShelfAPI.self])
        #expect(tool.declarationProblems == [Self.problem])
        #expect(MockCommand.startupWarnings(tool) == ["shelf mock: warning: \(Self.problem)"])
    }

    /// A tool does not read its declarations until a command needs them: `--help` (or `send`)
    /// pays nothing for the API's size.
    @Test func theDeclarationsAreReadWhenACommandNeedsThem() async {
        let tool = CourierTool(name: "counted", apis: [CountedAPI.self])
        #expect(await tool.run(["--help"]) == 0)
        #expect(CountedAPI.reads.withLock { $0 } == 0)
        #expect(CountedAPI.sampleReads.withLock { $0 } == 0)
        #expect(tool.declarationProblems.isEmpty)
        #expect(CountedAPI.reads.withLock { $0 } > 0)
        // The tool makes its samples once, however often its commands ask.
        let before = CountedAPI.sampleReads.withLock { $0 }
        #expect(tool.operations.count == 1)
        #expect(tool.samples.count == 1)
        #expect(CountedAPI.sampleReads.withLock { $0 } == before + 1)
    }

    @Test func verifyFailsOnIt() async throws {
        let books = ClosureHandler { request in
            request.path == "/books" ? .json(Data(#"["Dune"]"#.utf8)) : nil
        }
        try await withMockServer(handlers: [books]) { server in
            let tool = CourierTool(name: "shelf", apis: [ShelfAPI.self])
            let status = await tool.run(["verify", "--base-url", server.baseURL.absoluteString])
            #expect(status == 1)
            let transport = CurlTransport()
            let report = await ProviderVerification(apis: [ShelfAPI.self])
                .run(against: server.baseURL, transport: transport)
            await transport.shutdown()
            #expect(report.declarationProblems == [Self.problem])
            #expect(!report.isClean && report.cases.allSatisfy(\.passed), "\(report.summary)")
            #expect(report.summary.contains("FAIL  declaration: \(Self.problem)"), "\(report.summary)")
        }
    }
}
