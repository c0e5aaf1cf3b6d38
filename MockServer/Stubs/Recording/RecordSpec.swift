import CourierPrimitives
import Foundation

/// What `/__admin/recordings/start` and `/snapshot` are asked to record, as in WireMock's record spec.
struct RecordSpec: Sendable {
    enum BodyMatcher: Sendable {
        /// `equalToJson` for a JSON body, `equalTo` otherwise.
        case auto
        case equalToJson
        case equalTo(caseInsensitive: Bool)
    }

    var targetBaseURL: String?
    /// Which requests become stubs (a request pattern).
    var filters: RequestPattern?
    /// Request headers the stubs match on (`equalTo`, optionally case-insensitive).
    var captureHeaders: [(name: String, caseInsensitive: Bool)] = []
    var bodyMatcher = BodyMatcher.auto
    var ignoreArrayOrder = true
    var ignoreExtraElements = true
    /// Bodies larger than these go to `__files` (both nil: every body when persisting, none otherwise).
    var textSizeThreshold: Int?
    var binarySizeThreshold: Int?
    var persist = true
    var repeatsAsScenarios = true
    /// `IDS` returns only the new stubs' ids.
    var idsOnly = false

    static let keys: Set<String> = [
        "targetBaseUrl", "filters", "captureHeaders", "requestBodyPattern", "extractBodyCriteria", "persist",
        "repeatsAsScenarios", "outputFormat",
    ]

    /// Reads a record spec.
    /// - Throws: ``ValuePattern/InvalidMapping`` naming the key, e.g. `recordSpec.filters.urlPth`.
    static func parse(_ json: JSONValue, requireTarget: Bool) throws -> RecordSpec {
        let location = "recordSpec"
        guard case .object(let members) = json else {
            throw ValuePattern.InvalidMapping(description: "\(location) must be an object")
        }
        try MappingKeys.check(
            members, allowed: requireTarget ? keys : keys.subtracting(["targetBaseUrl"]), at: location)
        var spec = RecordSpec()
        if requireTarget {
            guard let text = members["targetBaseUrl"]?.stringValue, let url = URL(string: text),
                ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
            else {
                throw ValuePattern.InvalidMapping(
                    description:
                        "\(location).targetBaseUrl must be an http or https URL such as http://host:8080")
            }
            spec.targetBaseURL = text.hasSuffix("/") ? String(text.dropLast()) : text
        }
        if case .object(var filters)? = members["filters"] {
            if let allow = filters.removeValue(forKey: "allowNonProxied"), allow.boolValue == true {
                throw ValuePattern.InvalidMapping(
                    description: "\(location).filters.allowNonProxied: only proxied requests are recorded")
            }
            if filters["ids"] != nil {
                throw ValuePattern.InvalidMapping(
                    description: "\(location).filters.ids: not supported (filter with a request pattern)")
            }
            spec.filters = try RequestPattern.parse(.object(filters), at: "\(location).filters")
        } else if members["filters"] != nil {
            throw ValuePattern.InvalidMapping(description: "\(location).filters must be an object")
        }
        if let capture = members["captureHeaders"] {
            guard case .object(let headers) = capture else {
                throw ValuePattern.InvalidMapping(description: "\(location).captureHeaders must be an object")
            }
            for name in headers.keys.sorted() {
                if case .object(let options)? = headers[name] {
                    try MappingKeys.check(
                        options, allowed: ["caseInsensitive"], at: "\(location).captureHeaders.\(name)")
                }
                spec.captureHeaders.append((name, headers[name]?["caseInsensitive"]?.boolValue ?? false))
            }
        }
        if let pattern = members["requestBodyPattern"] {
            guard case .object(let options) = pattern else {
                throw ValuePattern.InvalidMapping(
                    description: "\(location).requestBodyPattern must be an object")
            }
            try MappingKeys.check(
                options, allowed: ["matcher", "ignoreArrayOrder", "ignoreExtraElements", "caseInsensitive"],
                at: "\(location).requestBodyPattern")
            switch options["matcher"]?.stringValue ?? "auto" {
            case "auto": spec.bodyMatcher = .auto
            case "equalToJson": spec.bodyMatcher = .equalToJson
            case "equalTo":
                spec.bodyMatcher = .equalTo(caseInsensitive: options["caseInsensitive"]?.boolValue ?? false)
            default:
                throw ValuePattern.InvalidMapping(
                    description: "\(location).requestBodyPattern.matcher must be auto, equalToJson or equalTo"
                )
            }
            spec.ignoreArrayOrder = options["ignoreArrayOrder"]?.boolValue ?? true
            spec.ignoreExtraElements = options["ignoreExtraElements"]?.boolValue ?? true
        }
        if let criteria = members["extractBodyCriteria"] {
            guard case .object(let options) = criteria else {
                throw ValuePattern.InvalidMapping(
                    description: "\(location).extractBodyCriteria must be an object")
            }
            try MappingKeys.check(
                options, allowed: ["textSizeThreshold", "binarySizeThreshold"],
                at: "\(location).extractBodyCriteria")
            spec.textSizeThreshold = try size(
                options["textSizeThreshold"], "\(location).extractBodyCriteria.textSizeThreshold")
            spec.binarySizeThreshold = try size(
                options["binarySizeThreshold"], "\(location).extractBodyCriteria.binarySizeThreshold")
        }
        spec.persist = members["persist"]?.boolValue ?? true
        spec.repeatsAsScenarios = members["repeatsAsScenarios"]?.boolValue ?? true
        switch members["outputFormat"]?.stringValue?.uppercased() {
        case nil, "FULL"?: spec.idsOnly = false
        case "IDS"?: spec.idsOnly = true
        default:
            throw ValuePattern.InvalidMapping(description: "\(location).outputFormat must be FULL or IDS")
        }
        return spec
    }

    /// A size such as `2048`, `"2048"`, `"2kb"` or `"1mb"`.
    private static func size(_ json: JSONValue?, _ location: String) throws -> Int? {
        guard let json else { return nil }
        if let value = json.intValue, value >= 0 { return value }
        let text = json.matchText.lowercased().trimmingCharacters(in: .whitespaces)
        for (suffix, factor) in [("kb", 1024), ("mb", 1024 * 1024), ("b", 1)] where text.hasSuffix(suffix) {
            if let value = Int(text.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)), value >= 0 {
                let (size, overflow) = value.multipliedReportingOverflow(by: factor)
                guard !overflow else { break }
                return size
            }
        }
        throw ValuePattern.InvalidMapping(description: "\(location) must be a size such as 2048 or \"2kb\"")
    }
}
