import Foundation

/// What one demo run did: each step, its result, request count and time.
package struct DemoReport: Sendable {
    /// One step of the flow.
    package struct Step: Sendable {
        /// The step's name, such as `signup`.
        package var name: String
        /// Whether it did what it should.
        package var passed: Bool
        /// What happened, in a few words.
        package var detail: String
        /// How many HTTP requests it sent.
        package var requests: Int
        /// How long it took, in seconds.
        package var seconds: Double
    }

    /// The transport's name, such as `curl`.
    package var transport: String
    /// The steps, in order.
    package var steps: [Step] = []
    /// Responses the demo's HTTP caches served without asking the server.
    package var cacheHits = 0
    /// Responses the demo's HTTP caches served after a `304 Not Modified`.
    package var cacheRevalidations = 0

    /// Whether every step passed.
    package var passed: Bool { !steps.isEmpty && steps.allSatisfy(\.passed) }

    /// The report as a table.
    package var formatted: String {
        var lines = ["transport: \(transport)"]
        lines.append(
            "  " + "step".padding(toLength: 27, withPad: " ", startingAt: 0)
                + "result  requests     time  detail")
        for step in steps {
            let time = String(format: "%7.1fms", step.seconds * 1000)
            let requests = String(step.requests).leftPadded(to: 8)
            lines.append(
                "  " + step.name.padding(toLength: 27, withPad: " ", startingAt: 0)
                    + (step.passed ? "ok    " : "FAIL  ") + requests + " " + time + "  " + step.detail)
        }
        let total = steps.reduce(0) { $0 + $1.requests }
        let seconds = steps.reduce(0) { $0 + $1.seconds }
        lines.append(
            "  " + "total".padding(toLength: 27, withPad: " ", startingAt: 0) + (passed ? "ok    " : "FAIL  ")
                + String(total).leftPadded(to: 8) + " " + String(format: "%7.1fms", seconds * 1000))
        lines.append("  http cache: \(cacheHits) hits, \(cacheRevalidations) revalidations")
        return lines.joined(separator: "\n")
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
