import CourierPrimitives

/// Where a JSON document differs from an `equalToJson` expectation, for the 404 that names the closest stub.
extension JSONComparison {
    /// The differing members, each as `$.path: expected X but was Y`, at most `limit` of them.
    static func differences(
        expected: JSONValue, actual: JSONValue, ignoreArrayOrder: Bool, ignoreExtraElements: Bool,
        limit: Int = 8
    ) -> [String] {
        var found: [String] = []
        collect(expected, actual, "$", ignoreArrayOrder, ignoreExtraElements, limit, &found)
        return found
    }

    private static func collect(
        _ expected: JSONValue, _ actual: JSONValue, _ path: String, _ order: Bool, _ extra: Bool,
        _ limit: Int,
        _ found: inout [String]
    ) {
        guard found.count < limit,
            !matches(expected: expected, actual: actual, ignoreArrayOrder: order, ignoreExtraElements: extra)
        else { return }
        switch (expected, actual) {
        case (.object(let wanted), .object(let got)):
            for key in wanted.keys.sorted() {
                let here = "\(path).\(key)"
                guard let value = wanted[key] else { continue }
                if let other = got[key] {
                    collect(value, other, here, order, extra, limit, &found)
                } else if found.count < limit {
                    found.append("\(here): expected \(value.text) but was absent")
                }
            }
            if !extra {
                for key in got.keys.sorted() where wanted[key] == nil && found.count < limit {
                    found.append("\(path).\(key): not expected but was \(got[key]?.text ?? "null")")
                }
            }
        case (.array(let wanted), .array(let got)) where !order && wanted.count == got.count:
            for (index, pair) in zip(wanted, got).enumerated() {
                collect(pair.0, pair.1, "\(path)[\(index)]", order, extra, limit, &found)
            }
        default:
            found.append("\(path): expected \(expected.text) but was \(actual.text)")
        }
    }
}
