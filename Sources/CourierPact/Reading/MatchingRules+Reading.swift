import CourierPrimitives

extension MatchingRules {
    /// The `matchingRules` of a request or response: V3/V4 categories, or V2's flat paths
    /// (`$.body.a`, `$.headers.Accept`, `$.query.q`, `$.path`).
    init(in part: DocumentReader, v2: Bool) throws(PactError) {
        self.init()
        guard let reader = part.member("matchingRules") else { return }
        let entries = try reader.object()
        let flat = v2 || entries.contains { $0.key.hasPrefix("$") }
        if flat {
            for (key, value) in entries {
                let (category, path) = try Self.v2Location(key, reader: value)
                let list = try RuleList(v2: value)
                self[category][path] = list
            }
            return
        }
        for (name, value) in entries {
            guard let category = Category(rawValue: name) else { continue }  // metadata, contents: not HTTP
            if value.member("matchers") != nil {
                self[category]["$"] = try RuleList(value)
            } else {
                for (path, list) in try value.object() { self[category][path] = try RuleList(list) }
            }
        }
    }

    private static func v2Location(_ key: String, reader: DocumentReader) throws(PactError) -> (
        Category, String
    ) {
        if key == "$.path" { return (.path, "$") }
        if key == "$.body" { return (.body, "$") }
        for (prefix, category) in [("$.body", Category.body)] where key.hasPrefix(prefix) {
            return (category, "$" + key.dropFirst(prefix.count))
        }
        for (prefix, category) in [("$.headers.", Category.header), ("$.query.", Category.query)]
        where key.hasPrefix(prefix) {
            return (category, String(key.dropFirst(prefix.count)))
        }
        throw reader.fault(
            "a V2 matching rule path must start with $.body, $.headers., $.query. or be $.path")
    }
}

extension RuleList {
    init(_ reader: DocumentReader) throws(PactError) {
        let combine = try reader.member("combine")?.string() ?? "AND"
        guard let value = Combine(rawValue: combine.uppercased()) else {
            throw reader.fault("'combine' must be AND or OR, not \(combine)")
        }
        let matchers = try reader.required("matchers").array().map { (item) throws(PactError) in
            try MatchingRule(item)
        }
        self.init(matchers, combine: value)
    }

    /// A V2 rule: one matcher object at the path.
    init(v2 reader: DocumentReader) throws(PactError) {
        self.init([try MatchingRule(reader)])
    }
}

extension MatchingRule {
    init(_ reader: DocumentReader) throws(PactError) {
        let name = try reader.member("match")?.string()
        let min = try reader.member("min")?.int()
        let max = try reader.member("max")?.int()
        switch name {
        case nil:
            if let regex = reader.member("regex") {
                self = .regex(try regex.string())
            } else if min != nil || max != nil {
                self = .typeBounded(min: min, max: max)
            } else {
                throw reader.fault("a matcher needs 'match' (or a V2 'regex', 'min' or 'max')")
            }
        case "equality": self = .equality
        case "regex": self = .regex(try reader.required("regex").string())
        case "type", "min", "max":
            self = min == nil && max == nil ? .type : .typeBounded(min: min, max: max)
        case "include": self = .include(try reader.required("value").string())
        case "integer": self = .integer
        case "decimal": self = .decimal
        case "number": self = .number
        case "boolean": self = .boolean
        case "null": self = .null
        case "date": self = .date(format: try Self.format(reader, "date", default: "yyyy-MM-dd"))
        case "time": self = .time(format: try Self.format(reader, "time", default: "HH:mm:ss"))
        case "timestamp", "datetime":
            self = .dateTime(format: try Self.format(reader, name ?? "", default: "yyyy-MM-dd'T'HH:mm:ssXXX"))
        case "values": self = .values
        case "notEmpty": self = .notEmpty
        case "contentType", "content-type": self = .contentType(try reader.required("value").string())
        case "eachKey": self = .eachKey(try Self.nested(reader))
        case "eachValue": self = .eachValue(try Self.nested(reader))
        case "statusCode": self = .statusCode(try Self.statusClass(reader.required("status")))
        case let other?:
            guard ["semver", "arrayContains"].contains(other) else {
                throw reader.fault("unknown matcher '\(other)'")
            }
            self = .unsupported(reader.value)
        }
    }

    private static func format(_ reader: DocumentReader, _ key: String, default fallback: String)
        throws(PactError)
        -> String
    {
        if let format = reader.member("format") { return try format.string() }
        if let format = reader.member(key) { return try format.string() }
        return fallback
    }

    private static func nested(_ reader: DocumentReader) throws(PactError) -> [MatchingRule] {
        try reader.required("rules").array().map { (item) throws(PactError) in try MatchingRule(item) }
    }

    private static func statusClass(_ reader: DocumentReader) throws(PactError) -> StatusClass {
        if case .array = reader.value {
            return .codes(try reader.array().map { (item) throws(PactError) in try item.int() })
        }
        switch try reader.string() {
        case "info", "information": return .information
        case "success": return .success
        case "redirect": return .redirect
        case "clientError": return .clientError
        case "serverError": return .serverError
        case "nonError": return .nonError
        case "error": return .error
        case let other: throw reader.fault("unknown status class '\(other)'")
        }
    }
}
