import CourierPrimitives
import Foundation

extension PactResponse {
    /// Every way an actual response differs from this expected one, by the matching rules: the
    /// status, each expected header, the body's content type and every value in the body (not
    /// only the first). Empty when the response satisfies the interaction.
    ///
    /// - Parameters:
    ///   - actualStatus: the actual status code.
    ///   - actualHeaders: the actual header fields.
    ///   - actualBody: the actual body bytes.
    public func mismatches(
        status actualStatus: Int, headers actualHeaders: PactHeaders, body actualBody: Data
    )
        -> [PactMismatch]
    {
        var found: [PactMismatch] = []
        if let rules = matchingRules.named("$", in: .status) {
            if let failure = rules.failure(
                of: .int(Int64(actualStatus)), expected: .int(Int64(status)), fromText: true)
            {
                found.append(
                    PactMismatch(
                        kind: .status, path: "status", expected: String(status), actual: String(actualStatus),
                        mismatch: failure))
            }
        } else if actualStatus != status {
            found.append(
                PactMismatch(
                    kind: .status, path: "status", expected: String(status), actual: String(actualStatus),
                    mismatch: "expected status of \(status) but was \(actualStatus)"))
        }
        found += headerMismatches(actualHeaders)
        found += bodyMismatches(actualBody, contentType: actualHeaders["Content-Type"]?.first)
        return found
    }

    private func headerMismatches(_ actual: PactHeaders) -> [PactMismatch] {
        var found: [PactMismatch] = []
        for (name, values) in headers {
            let expected = values.joined(separator: ", ")
            guard let arrived = actual[name] else {
                found.append(
                    PactMismatch(
                        kind: .header, path: name, expected: expected, actual: "",
                        mismatch: "Expected a header '\(name)' but was missing"))
                continue
            }
            let text = arrived.joined(separator: ", ")
            if let rules = matchingRules.named(name, in: .header) {
                if let failure = rules.failure(of: .string(text), expected: .string(expected), fromText: true)
                {
                    found.append(
                        PactMismatch(
                            kind: .header, path: name, expected: expected, actual: text,
                            mismatch: "Mismatch with header '\(name)': \(failure)"))
                }
            } else if !Self.headerValuesMatch(name, expected: expected, actual: text) {
                found.append(
                    PactMismatch(
                        kind: .header, path: name, expected: expected, actual: text,
                        mismatch:
                            "Mismatch with header '\(name)': Expected '\(expected)' but received '\(text)'"))
            }
        }
        return found
    }

    /// Content-Type compares the media type and the parameters the expected value names; other
    /// fields compare their comma-separated values with whitespace trimmed.
    static func headerValuesMatch(_ name: String, expected: String, actual: String) -> Bool {
        func parts(_ text: String, _ separator: Character) -> [String] {
            text.split(separator: separator).map { $0.trimmingCharacters(in: .whitespaces) }
        }
        if name.caseInsensitiveCompare("Content-Type") == .orderedSame {
            let want = parts(expected, ";")
            let got = parts(actual, ";")
            guard let wantType = want.first, let gotType = got.first,
                wantType.caseInsensitiveCompare(gotType) == .orderedSame
            else { return false }
            let gotParameters = Set(got.dropFirst().map { $0.lowercased() })
            return want.dropFirst().allSatisfy { gotParameters.contains($0.lowercased()) }
        }
        return parts(expected, ",") == parts(actual, ",")
    }

    private func bodyMismatches(_ actual: Data, contentType: String?) -> [PactMismatch] {
        guard let body else { return [] }
        let expectedType = body.contentType ?? headers["Content-Type"]?.first
        if let rules = matchingRules.exact(for: [], in: .body),
            case .contentType(let wanted)? = rules.matchers.first(where: {
                if case .contentType = $0 { return true }
                return false
            }),
            !Self.headerValuesMatch("Content-Type", expected: wanted, actual: contentType ?? "")
        {
            return [
                PactMismatch(
                    kind: .bodyType, path: "$", expected: wanted, actual: contentType ?? "",
                    mismatch:
                        "Expected a body of '\(wanted)' but the actual content type was '\(contentType ?? "")'"
                )
            ]
        }
        switch body.content {
        case .json(let expected):
            guard PactBody.isJSON(contentType) || (contentType == nil && !actual.isEmpty) else {
                return [
                    PactMismatch(
                        kind: .bodyType, path: "$", expected: expectedType ?? "application/json",
                        actual: contentType ?? "",
                        mismatch:
                            "Expected a body of '\(expectedType ?? "application/json")' but the actual content type was '\(contentType ?? "none")'"
                    )
                ]
            }
            guard !actual.isEmpty else {
                return [
                    PactMismatch(
                        kind: .body, path: "$", expected: expected.text, actual: "",
                        mismatch: "Expected a body but it was empty")
                ]
            }
            let value: JSONValue
            do {
                value = try JSONValue.parseStrictly(actual)
            } catch {
                return [
                    PactMismatch(
                        kind: .body, path: "$", expected: expected.text,
                        actual: String(decoding: actual.prefix(200), as: UTF8.self),
                        mismatch: "Failed to parse the body as JSON: \(error)")
                ]
            }
            var comparison = BodyComparison(rules: matchingRules)
            comparison.compare(expected, value, at: [])
            return comparison.mismatches
        case .text(let text):
            let arrived = String(decoding: actual, as: UTF8.self)
            if let rules = matchingRules.best(for: [], in: .body) {
                guard
                    let failure = rules.failure(of: .string(arrived), expected: .string(text), fromText: true)
                else { return [] }
                return [
                    PactMismatch(kind: .body, path: "$", expected: text, actual: arrived, mismatch: failure)
                ]
            }
            return arrived == text
                ? []
                : [
                    PactMismatch(
                        kind: .body, path: "$", expected: text, actual: arrived,
                        mismatch: "Expected body '\(text)' but received '\(arrived)'")
                ]
        case .bytes(let data):
            return data == actual
                ? []
                : [
                    PactMismatch(
                        kind: .body, path: "$", expected: "\(data.count) bytes",
                        actual: "\(actual.count) bytes",
                        mismatch: "Expected the body's bytes to be equal")
                ]
        }
    }
}

/// Compares an expected JSON body with an actual one by the matching rules, collecting every
/// mismatch.
struct BodyComparison {
    let rules: MatchingRules
    var mismatches: [PactMismatch] = []

    init(rules: MatchingRules) {
        self.rules = rules
    }

    mutating func compare(_ expected: JSONValue, _ actual: JSONValue, at path: [PactPath.Segment]) {
        let list = rules.best(for: path, in: .body)
        if let list {
            if let failure = list.failure(of: actual, expected: expected) {
                report(path, expected, actual, failure)
                return
            }
        }
        switch (expected, actual) {
        case (.object(let want), .object(let got)):
            let byValues = list?.matchers.contains(.values) == true
            if byValues, let template = MatchingRule.firstValue(of: expected) {
                for (key, value) in got.sorted(by: { $0.key < $1.key }) {
                    compare(want[key] ?? template, value, at: path + [.field(key)])
                }
                return
            }
            for (key, value) in want.sorted(by: { $0.key < $1.key }) {
                guard let arrived = got[key] else {
                    report(
                        path + [.field(key)], value, nil, "Expected '\(key)' (\(value.text)) but was missing")
                    continue
                }
                compare(value, arrived, at: path + [.field(key)])
            }
        case (.array(let want), .array(let got)):
            if list?.comparesItemsByTemplate == true {
                guard let template = want.first else { return }
                for (index, item) in got.enumerated() { compare(template, item, at: path + [.index(index)]) }
                return
            }
            if want.count != got.count {
                report(
                    path, expected, actual,
                    "Expected an array of \(want.count) items but received \(got.count) items")
            }
            for (index, item) in zip(want, got).enumerated() {
                compare(item.0, item.1, at: path + [.index(index)])
            }
        case (.object, _), (.array, _):
            report(path, expected, actual, "Expected \(expected.typeName) but received \(actual.typeName)")
        default:
            if list == nil, !MatchingRule.equal(actual, expected) {
                report(path, expected, actual, "Expected \(expected.text) but received \(actual.text)")
            }
        }
    }

    private mutating func report(
        _ path: [PactPath.Segment], _ expected: JSONValue, _ actual: JSONValue?, _ reason: String
    ) {
        mismatches.append(
            PactMismatch(
                kind: .body, path: PactPath.text(of: path), expected: expected.text,
                actual: actual?.text ?? "",
                mismatch: reason))
    }
}
