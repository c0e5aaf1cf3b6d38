import CourierPrimitives
import Foundation

/// The `request` half of a mapping (also the criteria of `/__admin/requests/count` and `find`).
struct RequestPattern: Sendable {
    enum URLMatch: Sendable {
        case url(String)
        case urlPath(String)
        case urlPattern(RegexBox)
        case urlPathPattern(RegexBox)
        case urlPathTemplate(PathTemplate)

        /// The mapping's name for this kind of URL pattern (what a mismatch names).
        var field: String {
            switch self {
            case .url: "url"
            case .urlPath: "urlPath"
            case .urlPattern: "urlPattern"
            case .urlPathPattern: "urlPathPattern"
            case .urlPathTemplate: "urlPathTemplate"
            }
        }
    }

    struct MultipartPattern: Sendable {
        var matchAll: Bool
        var headers: [(String, ValuePattern)]
        var bodyPatterns: [ValuePattern]
    }

    /// One way a request differs from the pattern.
    struct Mismatch: Sendable, Equatable {
        var field: String
        var detail: String
        /// How far this difference puts the request from the pattern when ranking near misses: as in
        /// WireMock, a different URL outweighs a different method, which outweighs any header, query,
        /// cookie or body difference (a scenario state, weight 1, weighs least).
        var weight = Self.fieldWeight

        static let urlWeight = 20
        static let methodWeight = 6
        static let fieldWeight = 2
    }

    var method: String?
    var url: URLMatch?
    var queryParameters: [(String, ValuePattern)] = []
    var headers: [(String, ValuePattern)] = []
    var cookies: [(String, ValuePattern)] = []
    var bodyPatterns: [ValuePattern] = []
    var multipartPatterns: [MultipartPattern] = []
    var basicAuth: (username: String, password: String)?

    /// Whether matching needs no more than comparing text of the request line and headers: no body,
    /// multipart or JSON pattern, no regular expression. Such a pattern is matched on an event loop.
    var isCheap: Bool {
        switch url {
        case .urlPattern?, .urlPathPattern?: return false
        default: break
        }
        return bodyPatterns.isEmpty && multipartPatterns.isEmpty
            && (queryParameters + headers + cookies).allSatisfy { $0.1.isCheap }
    }

    static func parse(_ json: JSONValue, at location: String) throws -> RequestPattern {
        guard case .object(let members) = json else {
            throw ValuePattern.InvalidMapping(description: "\(location) must be an object")
        }
        try MappingKeys.check(members, allowed: MappingKeys.request, at: location)
        var pattern = RequestPattern()
        if let method = members["method"] {
            guard let text = method.stringValue, isToken(text) else {
                throw ValuePattern.InvalidMapping(
                    description:
                        "\(location).method must be an HTTP method (a token such as GET), ANY or \(getOrHead)"
                )
            }
            pattern.method = text.uppercased() == "ANY" ? nil : text.uppercased()
        }
        let urlKeys = ["url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate"].filter {
            members[$0] != nil
        }
        if urlKeys.count > 1 {
            throw ValuePattern.InvalidMapping(
                description: "\(location): use only one of \(urlKeys.joined(separator: ", "))")
        }
        if let key = urlKeys.first {
            guard let text = members[key]?.stringValue else {
                throw ValuePattern.InvalidMapping(description: "\(location).\(key) must be a string")
            }
            switch key {
            case "url": pattern.url = .url(text)
            case "urlPath": pattern.url = .urlPath(text)
            case "urlPattern": pattern.url = .urlPattern(try compile(text, "\(location).urlPattern"))
            case "urlPathPattern":
                pattern.url = .urlPathPattern(try compile(text, "\(location).urlPathPattern"))
            default:
                pattern.url = .urlPathTemplate(PathTemplate(text))
            }
        }
        pattern.queryParameters = try patterns(members["queryParameters"], "\(location).queryParameters")
        pattern.headers = try patterns(members["headers"], "\(location).headers")
        pattern.cookies = try patterns(members["cookies"], "\(location).cookies")
        if let body = members["bodyPatterns"] {
            guard case .array(let items) = body else {
                throw ValuePattern.InvalidMapping(description: "\(location).bodyPatterns must be an array")
            }
            pattern.bodyPatterns = try items.enumerated().map {
                try ValuePattern.parse($0.element, at: "\(location).bodyPatterns[\($0.offset)]")
            }
        }
        if let multipart = members["multipartPatterns"] {
            guard case .array(let items) = multipart else {
                throw ValuePattern.InvalidMapping(
                    description: "\(location).multipartPatterns must be an array")
            }
            pattern.multipartPatterns = try items.enumerated().map { index, item in
                let here = "\(location).multipartPatterns[\(index)]"
                if case .object(let keys) = item {
                    try MappingKeys.check(keys, allowed: MappingKeys.multipart, at: here)
                }
                let type = item["matchingType"]?.stringValue?.uppercased() ?? "ANY"
                guard type == "ANY" || type == "ALL" else {
                    throw ValuePattern.InvalidMapping(description: "\(here).matchingType must be ANY or ALL")
                }
                var bodies: [ValuePattern] = []
                if case .array(let list)? = item["bodyPatterns"] {
                    bodies = try list.enumerated().map {
                        try ValuePattern.parse($0.element, at: "\(here).bodyPatterns[\($0.offset)]")
                    }
                }
                return MultipartPattern(
                    matchAll: type == "ALL", headers: try patterns(item["headers"], "\(here).headers"),
                    bodyPatterns: bodies)
            }
        }
        if let credentials = members["basicAuthCredentials"] {
            if case .object(let keys) = credentials {
                try MappingKeys.check(
                    keys, allowed: MappingKeys.basicAuth, at: "\(location).basicAuthCredentials")
            }
            guard let username = credentials["username"]?.stringValue,
                let password = credentials["password"]?.stringValue
            else {
                throw ValuePattern.InvalidMapping(
                    description: "\(location).basicAuthCredentials needs username and password")
            }
            pattern.basicAuth = (username, password)
        }
        return pattern
    }

    /// WireMock 3's method that matches a GET and a HEAD.
    static let getOrHead = "GET_OR_HEAD"

    /// Whether a request's method fits the pattern's: the same, or GET or HEAD for `GET_OR_HEAD`.
    static func method(_ expected: String, matches actual: String) -> Bool {
        expected == actual || (expected == getOrHead && (actual == "GET" || actual == "HEAD"))
    }

    /// Whether `text` is a method name a request line can carry (RFC 9110 §9.1: a token).
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (CharacterSet.alphanumerics.contains(scalar)
                        || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
            }
    }

    private static func compile(_ text: String, _ location: String) throws -> RegexBox {
        do {
            return try RegexBox(text)
        } catch {
            throw ValuePattern.InvalidMapping(
                description: "\(location): invalid regular expression '\(text)'")
        }
    }

    private static func patterns(_ json: JSONValue?, _ location: String) throws -> [(String, ValuePattern)] {
        guard let json else { return [] }
        guard case .object(let members) = json else {
            throw ValuePattern.InvalidMapping(description: "\(location) must be an object of name → matcher")
        }
        return try members.keys.sorted().map { key in
            (key, try ValuePattern.parse(members[key] ?? .null, at: "\(location).\(key)"))
        }
    }

    // MARK: - Matching

    /// The weight of every field the pattern tests: a request differing in all of them is at distance 1.
    var totalWeight: Int {
        let fields =
            queryParameters.count + headers.count + cookies.count + bodyPatterns.count
            + multipartPatterns.count
            + (basicAuth == nil ? 0 : 1)
        return Mismatch.urlWeight + Mismatch.methodWeight + Mismatch.fieldWeight * fields
    }

    /// The distance (0 to 1) of a request from the pattern, and what differed.
    func distance(_ view: RequestView) -> (distance: Double, differences: [Mismatch]) {
        let differences = mismatches(view)
        let score = differences.reduce(0) { $0 + $1.weight }
        return (min(1, Double(score) / Double(totalWeight)), differences)
    }

    /// Whether the request matches (stops at the first difference, describing none).
    func matches(_ view: RequestView) -> Bool {
        var matched = true
        visitMismatches(view, stopAtFirst: true) { _, _, _ in matched = false }
        return matched
    }

    /// Every difference between the request and the pattern (empty: a match).
    func mismatches(_ view: RequestView) -> [Mismatch] {
        var found: [Mismatch] = []
        visitMismatches(view, stopAtFirst: false) { weight, field, detail in
            found.append(Mismatch(field: field(), detail: detail(), weight: weight))
        }
        return found
    }

    /// The summed weight of the differences (0: a match), without describing them: near misses are
    /// ranked by it over every stub, and only the nearest are described.
    func mismatchWeight(_ view: RequestView) -> Int {
        var total = 0
        visitMismatches(view, stopAtFirst: false) { weight, _, _ in total += weight }
        return total
    }

    /// Reports each difference with its weight, and its field and detail to make on demand (a request
    /// checked against many stubs differs from most of them, and describing each would cost more than
    /// finding it).
    private func visitMismatches(
        _ view: RequestView, stopAtFirst: Bool,
        _ report: (_ weight: Int, _ field: () -> String, _ detail: () -> String) -> Void
    ) {
        let request = view.request
        if let method, !Self.method(method, matches: request.method) {
            report(Mismatch.methodWeight, { "method" }, { "expected \(method) but was \(request.method)" })
            if stopAtFirst { return }
        }
        if let url, !Self.fits(url, request) {
            report(Self.urlWeight(url, request), { url.field }, { Self.urlDifference(url, request) })
            if stopAtFirst { return }
        }
        for (name, pattern) in queryParameters {
            let values = request.query.filter { $0.name == name }.map(\.value)
            if !Self.anyMatches(pattern, values) {
                report(
                    Mismatch.fieldWeight, { "query \(name)" },
                    { "expected \(pattern.summary) but was \(Self.describe(values))" })
                if stopAtFirst { return }
            }
        }
        for (name, pattern) in headers {
            let values = request.headers.values(for: name)
            if !Self.anyMatches(pattern, values) {
                report(
                    Mismatch.fieldWeight, { "header \(name)" },
                    { "expected \(pattern.summary) but was \(Self.describe(values))" })
                if stopAtFirst { return }
            }
        }
        if let basicAuth {
            let expected =
                "Basic " + Data("\(basicAuth.username):\(basicAuth.password)".utf8).base64EncodedString()
            if request.headers["Authorization"] != expected {
                report(
                    Mismatch.fieldWeight, { "basic auth" },
                    { "expected credentials for \(basicAuth.username)" })
                if stopAtFirst { return }
            }
        }
        if !cookies.isEmpty {
            let jar = view.cookies
            for (name, pattern) in cookies {
                let values = jar.filter { $0.0 == name }.map(\.1)
                if !Self.anyMatches(pattern, values) {
                    report(
                        Mismatch.fieldWeight, { "cookie \(name)" },
                        { "expected \(pattern.summary) but was \(Self.describe(values))" })
                    if stopAtFirst { return }
                }
            }
        }
        if !bodyPatterns.isEmpty {
            let body = view.body
            for pattern in bodyPatterns where !pattern.matches(body: body, json: { view.json }) {
                report(Mismatch.fieldWeight, { "body" }, { Self.bodyDifference(pattern, body, view.json) })
                if stopAtFirst { return }
            }
        }
        for (index, pattern) in multipartPatterns.enumerated() {
            guard let parts = view.multipartParts else {
                report(Mismatch.fieldWeight, { "multipart" }, { "expected a multipart body" })
                return
            }
            let partMatches = parts.map { part in Self.partMatches(pattern, part) }
            let ok =
                pattern.matchAll
                ? (!parts.isEmpty && partMatches.allSatisfy { $0 }) : partMatches.contains(true)
            if !ok {
                report(
                    Mismatch.fieldWeight, { "multipart[\(index)]" },
                    { "\(pattern.matchAll ? "not every" : "no") part matched (\(parts.count) parts)" })
                if stopAtFirst { return }
            }
        }
    }

    /// A different URL weighs at least half of ``Mismatch/urlWeight``, more the less alike the two are
    /// (edit distance), so `/orderz` is nearer `/orders` than `/health`; always more than a method.
    private static func urlWeight(_ url: URLMatch, _ request: ServerRequest) -> Int {
        let expected: String
        let actual: String
        switch url {
        case .url(let text): (expected, actual) = (text, request.target)
        case .urlPath(let text): (expected, actual) = (text, request.path)
        case .urlPathTemplate(let template): (expected, actual) = (template.text, request.path)
        case .urlPattern, .urlPathPattern: return Mismatch.urlWeight
        }
        let half = Mismatch.urlWeight / 2
        let a = Array(expected.utf8.prefix(256))
        let b = Array(actual.utf8.prefix(256))
        let longest = max(a.count, b.count)
        guard longest > 0 else { return half }
        return half + (half * editDistance(a, b) + longest - 1) / longest
    }

    /// Levenshtein distance, one row at a time.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(
                    previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// What differs in the body: the differing members for `equalToJson` on a JSON body, else the body.
    private static func bodyDifference(_ pattern: ValuePattern, _ body: Data, _ json: JSONValue?) -> String {
        if case .equalToJson(let expected, let ignoreArrayOrder, let ignoreExtraElements) = pattern,
            let actual = json
        {
            let differences = JSONComparison.differences(
                expected: expected, actual: actual, ignoreArrayOrder: ignoreArrayOrder,
                ignoreExtraElements: ignoreExtraElements)
            if !differences.isEmpty { return "equalToJson differs at " + differences.joined(separator: "; ") }
        }
        let snippet = String(decoding: body.prefix(200), as: UTF8.self)
        return "expected \(pattern.summary) but was \"\(snippet)\""
    }

    private static func partMatches(_ pattern: MultipartPattern, _ part: MultipartPart) -> Bool {
        for (name, valuePattern) in pattern.headers
        where !anyMatches(valuePattern, part.headers.values(for: name)) {
            return false
        }
        return pattern.bodyPatterns.allSatisfy { $0.matches(body: part.body) }
    }

    private static func anyMatches(_ pattern: ValuePattern, _ values: [String]) -> Bool {
        if values.isEmpty { return pattern.matches(nil) }
        if case .absent = pattern { return false }
        return values.contains { pattern.matches($0) }
    }

    private static func describe(_ values: [String]) -> String {
        switch values.count {
        case 0: "absent"
        case 1: "\"\(values[0])\""
        default: "[" + values.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        }
    }

    /// Whether the request's URL fits the pattern's.
    private static func fits(_ url: URLMatch, _ request: ServerRequest) -> Bool {
        switch url {
        case .url(let expected): expected == request.target
        case .urlPath(let expected): expected == request.path || expected == request.decodedPath
        case .urlPattern(let regex): regex.wholeMatch(request.target)
        case .urlPathPattern(let regex): regex.wholeMatch(request.path)
        case .urlPathTemplate(let template): template.match(request.path) != nil
        }
    }

    /// How the request's URL differs from the pattern's (which it does not fit).
    private static func urlDifference(_ url: URLMatch, _ request: ServerRequest) -> String {
        switch url {
        case .url(let expected): "expected \(expected) but was \(request.target)"
        case .urlPath(let expected): "expected \(expected) but was \(request.path)"
        case .urlPattern(let regex): "\(request.target) does not match /\(regex.pattern)/"
        case .urlPathPattern(let regex): "\(request.path) does not match /\(regex.pattern)/"
        case .urlPathTemplate(let template): "\(request.path) does not fit \(template.text)"
        }
    }
}
