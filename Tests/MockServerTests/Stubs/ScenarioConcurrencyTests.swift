import CourierPrimitives
import Dispatch
import Foundation
import MockServer
import TestSupport
import Testing

/// Stubs are matched outside the store's lock, but a scenario moves one step per request: a
/// chain of states answered by many requests at once gives each state to exactly one request.
@Suite struct ScenarioConcurrencyTests {
    @Test func concurrentRequestsTakeEachStateOfAScenarioOnce() async throws {
        let steps = 24
        try await withMockServer { server in
            var mappings: [String] = []
            for step in 0..<steps {
                let required = step == 0 ? "Started" : "s\(step)"
                mappings.append(
                    """
                    {"scenarioName": "chain", "requiredScenarioState": "\(required)", "newScenarioState": "s\(step + 1)",
                     "request": {"method": "GET", "url": "/next"}, "response": {"status": 200, "body": "\(step)"}}
                    """)
            }
            try server.addStubs(
                json: Data(("{\"mappings\": [" + mappings.joined(separator: ",") + "]}").utf8))
            let answers = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: steps) { _ in
                let text = (try? perform(server, "/next"))?.text ?? "failed"
                answers.withLock { $0.append(text) }
            }
            #expect(answers.withLock { $0 }.sorted() == (0..<steps).map(String.init).sorted())
        }
    }
}
