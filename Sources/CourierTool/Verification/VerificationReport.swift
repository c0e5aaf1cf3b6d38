import Foundation

/// What `ProviderVerification` found: one result per case it ran or skipped.
public struct VerificationReport: Sendable {
    /// One way an answer broke the declaration.
    public struct Violation: Sendable, Hashable, CustomStringConvertible {
        /// The rule broken: `status`, `content-type`, `json`, `required`, `null`, `type`, `enum`,
        /// `format`, `length`, `bounds`, `pattern`, or `request` (the case could not be sent).
        public var rule: String
        /// Where: `status`, `Content-Type`, or the JSON path in the body (`response.tags[0]`).
        public var path: String
        /// Why, for people.
        public var message: String

        public var description: String { "\(path): \(message) [\(rule)]" }
    }

    /// One request sent (or skipped) and what its answer broke.
    public struct Case: Sendable {
        /// The operation id, such as `notes.note`.
        public var operation: String
        /// What the case tries, such as `sample`, `unknown id` or `no token`.
        public var name: String
        /// The method and URL sent.
        public var method: String
        public var url: String
        /// The statuses the case expects.
        public var expected: [Int]
        /// The status that came back; nil when skipped or when no response arrived.
        public var status: Int?
        /// What the answer broke; empty when it held.
        public var violations: [Violation]
        /// Why the case was not run, when it was not.
        public var skipped: String?

        /// Whether the case ran and its answer held.
        public var passed: Bool { skipped == nil && violations.isEmpty }
        /// `METHOD URL`.
        public var request: String { "\(method) \(url)" }
    }

    /// Every case, in the order run.
    public var cases: [Case]
    /// Problems with the declaration itself (an operation declared but missing from `samples`).
    public var declarationProblems: [String]

    /// Every violation, with its case.
    public var violations: [(case: Case, violation: Violation)] {
        cases.flatMap { item in item.violations.map { (item, $0) } }
    }

    /// Whether nothing broke the declaration (skipped cases do not count against it).
    public var isClean: Bool { cases.allSatisfy { $0.violations.isEmpty } && declarationProblems.isEmpty }

    /// A summary a person can read: one line per case, each violation under its case, and the
    /// counts.
    public var summary: String {
        var lines: [String] = []
        for item in cases {
            let head = "\(item.operation) [\(item.name)] \(item.request)"
            if let reason = item.skipped {
                lines.append("skip  \(head): \(reason)")
            } else if item.violations.isEmpty {
                lines.append("ok    \(head) -> \(item.status.map(String.init) ?? "-")")
            } else {
                lines.append("FAIL  \(head) -> \(item.status.map(String.init) ?? "no response")")
                lines += item.violations.map { "        \($0)" }
            }
        }
        lines += declarationProblems.map { "FAIL  declaration: \($0)" }
        let ran = cases.filter { $0.skipped == nil }
        let failed = ran.filter { !$0.violations.isEmpty }
        let skipped = cases.count - ran.count
        lines.append(
            "verify: \(cases.count) cases: \(ran.count - failed.count) passed, \(failed.count) failed with "
                + "\(violations.count) violation\(violations.count == 1 ? "" : "s"), \(skipped) skipped"
                + (declarationProblems.isEmpty ? "" : ", \(declarationProblems.count) declaration problems"))
        return lines.joined(separator: "\n")
    }

    /// The report as JUnit XML: one test suite, one test case per case (its class name the
    /// operation id), a `failure` listing the violations of each case that broke the declaration.
    public func junitXML(suiteName: String = "verify") -> String {
        let failures =
            cases.filter { $0.skipped == nil && !$0.violations.isEmpty }.count + declarationProblems.count
        let skipped = cases.filter { $0.skipped != nil }.count
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += "<testsuites>\n"
        xml +=
            "  <testsuite name=\"\(Self.escape(suiteName))\" tests=\"\(cases.count + declarationProblems.count)\" "
            + "failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\">\n"
        for item in cases {
            let name = Self.escape("\(item.name): \(item.request)")
            xml += "    <testcase classname=\"\(Self.escape(item.operation))\" name=\"\(name)\""
            if let reason = item.skipped {
                xml += ">\n      <skipped message=\"\(Self.escape(reason))\"/>\n    </testcase>\n"
            } else if item.violations.isEmpty {
                xml += "/>\n"
            } else {
                let count = item.violations.count
                let text = item.violations.map(\.description).joined(separator: "\n")
                xml +=
                    ">\n      <failure message=\"\(count) violation\(count == 1 ? "" : "s")\" type=\"contract\">"
                xml += Self.escape(text) + "</failure>\n    </testcase>\n"
            }
        }
        for problem in declarationProblems {
            xml += "    <testcase classname=\"declaration\" name=\"\(Self.escape(problem))\">\n"
            xml +=
                "      <failure message=\"\(Self.escape(problem))\" type=\"declaration\"/>\n    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// Text safe inside an XML attribute or element: markup escaped, characters XML 1.0 forbids
    /// replaced.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
