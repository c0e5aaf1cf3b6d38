import CourierPrimitives
import CourierTesting
import Foundation
import Testing

@testable import CourierPact

@Suite struct PactFileTests {
    func interaction(_ description: String, state: String? = nil, status: Int = 200) -> PactInteraction {
        PactInteraction(
            description: description, providerStates: state.map { [ProviderState($0)] } ?? [],
            request: PactRequest(method: "GET", path: "/notes"), response: PactResponse(status: status))
    }

    @Test func mergingReplacesTheSameInteractionAndKeepsOthers() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("App-API.json")
        try PactFile.merge(
            Pact(
                consumer: "App", provider: "API",
                interactions: [interaction("list"), interaction("one", state: "s")]),
            into: file)
        try PactFile.merge(
            Pact(
                consumer: "App", provider: "API",
                interactions: [
                    interaction("list", status: 204), interaction("one", state: "t"), interaction("new"),
                ]),
            into: file)
        let pact = try Pact(contentsOf: file)
        #expect(pact.interactions.map(\.description) == ["list", "one", "one", "new"])
        #expect(pact.interactions[0].response.status == 204)
        #expect(pact.interactions.map { $0.providerStates.first?.name } == [nil, "s", "t", nil])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
            .filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func anotherPairsFileIsRefused() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("pact.json")
        try PactFile.merge(
            Pact(consumer: "App", provider: "API", interactions: [interaction("a")]), into: file)
        #expect(throws: PactError.self) {
            try PactFile.merge(
                Pact(consumer: "Other", provider: "API", interactions: [interaction("b")]), into: file)
        }
        try Data("{oops".utf8).write(to: file)
        #expect(throws: PactError.self) {
            try PactFile.merge(
                Pact(consumer: "App", provider: "API", interactions: [interaction("b")]), into: file)
        }
    }

    @Test func concurrentWritersLoseNoInteraction() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("App-API.json")
        let writers = 8
        let perWriter = 10
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    // Each write opens the lock file anew, as a second process would.
                    for index in 0..<perWriter {
                        try PactFile.merge(
                            Pact(
                                consumer: "App", provider: "API",
                                interactions: [interaction("writer \(writer) call \(index)")]), into: file)
                    }
                }
            }
            try await group.waitForAll()
        }
        let pact = try Pact(contentsOf: file)
        #expect(pact.interactions.count == writers * perWriter)
        #expect(PactFile.name(for: Pact(consumer: "My App", provider: "a/b")) == "My_App-a_b.json")
    }
}
