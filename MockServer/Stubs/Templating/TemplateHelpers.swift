import CourierPrimitives
import Foundation

/// The helpers response templates may call, named as in WireMock 3.
enum TemplateHelpers {
    typealias Failure = Template.Failure

    /// Helpers that answer true or false, usable as blocks (`{{#eq a b}}…{{else}}…{{/eq}}`) and inline.
    static let conditionals: Set<String> = [
        "eq", "neq", "gt", "gte", "lt", "lte", "and", "or", "not", "contains", "matches",
    ]

    /// Every helper name (block helpers `if`, `unless`, `each` and `with` are handled by the renderer).
    static let names: Set<String> = conditionals.union([
        "jsonPath", "now", "randomValue", "randomInt", "upper", "lower", "capitalize", "trim", "substring",
        "replace", "size", "join", "array", "math", "base64", "urlEncode", "val",
    ])

    /// Refuses a helper result of `size` bytes beyond what a whole render may produce.
    private static func within(
        _ environment: TemplateEnvironment, _ size: Int, _ name: String, _ position: Int
    ) throws(Failure) {
        guard size > environment.maxOutput else { return }
        throw Failure(
            message: "\(name) would produce \(size) bytes, over the \(environment.maxOutput) a render may",
            position: position)
    }

    static func call(
        _ name: String, _ params: [TemplateValue], _ hash: [String: TemplateValue],
        environment: TemplateEnvironment, position: Int
    ) throws(Failure) -> TemplateValue {
        func need(_ count: Int) throws(Failure) {
            guard params.count >= count else {
                throw Failure(
                    message: "\(name) needs \(count) argument\(count == 1 ? "" : "s")", position: position)
            }
        }
        switch name {
        case "eq", "neq":
            try need(2)
            let same = equal(params[0], params[1])
            return .bool(name == "eq" ? same : !same)
        case "gt", "gte", "lt", "lte":
            try need(2)
            let order = compare(params[0], params[1])
            switch name {
            case "gt": return .bool(order > 0)
            case "gte": return .bool(order >= 0)
            case "lt": return .bool(order < 0)
            default: return .bool(order <= 0)
            }
        case "and":
            try need(1)
            return .bool(params.allSatisfy(\.isTruthy))
        case "or":
            try need(1)
            return .bool(params.contains(where: \.isTruthy))
        case "not":
            try need(1)
            return .bool(!params[0].isTruthy)
        case "contains":
            try need(2)
            let needle = params[1].rendered
            switch params[0] {
            case .list(let items):
                return .bool(items.contains { $0.rendered == needle })
            case .json(.array(let items)):
                return .bool(items.contains { TemplateValue(json: $0).rendered == needle })
            case .composite(_, let items, _) where items.count > 1:
                return .bool(items.contains { $0.rendered == needle })
            default:
                return .bool(params[0].rendered.contains(needle))
            }
        case "matches":
            try need(2)
            do {
                return .bool(try RegexBox(params[1].rendered).wholeMatch(params[0].rendered))
            } catch {
                throw Failure(
                    message: "matches: invalid regular expression '\(params[1].rendered)'", position: position
                )
            }
        case "jsonPath":
            try need(2)
            return try jsonPath(
                params[0], params[1].rendered, default: hash["default"], maxOutput: environment.maxOutput,
                position: position)
        case "now":
            return try now(hash, environment: environment, position: position)
        case "randomValue":
            return try randomValue(hash, position: position)
        case "randomInt":
            guard let lower = whole(hash["lower"]?.number ?? Double(Int32.min)),
                let upper = whole(hash["upper"]?.number ?? Double(Int32.max)), lower < upper
            else {
                throw Failure(message: "randomInt needs whole numbers lower < upper", position: position)
            }
            return .number(Double(Int.random(in: lower..<upper)))
        case "upper":
            try need(1)
            return .string(params[0].rendered.uppercased())
        case "lower":
            try need(1)
            return .string(params[0].rendered.lowercased())
        case "capitalize":
            try need(1)
            return .string(
                params[0].rendered.split(separator: " ", omittingEmptySubsequences: false).map {
                    $0.prefix(1).uppercased() + $0.dropFirst()
                }.joined(separator: " "))
        case "trim":
            try need(1)
            return .string(params[0].rendered.trimmingCharacters(in: .whitespacesAndNewlines))
        case "substring":
            try need(2)
            let characters = Array(params[0].rendered)
            guard let start = params[1].number.flatMap(whole), start >= 0, start <= characters.count else {
                throw Failure(message: "substring: start is out of range", position: position)
            }
            var end = characters.count
            if params.count > 2 {
                guard let value = params[2].number.flatMap(whole), value >= start, value <= characters.count
                else {
                    throw Failure(message: "substring: end is out of range", position: position)
                }
                end = value
            }
            return .string(String(characters[start..<end]))
        case "replace":
            try need(3)
            let source = params[0].rendered
            let target = params[1].rendered
            guard !target.isEmpty else { return .string(source) }
            let replacement = params[2].rendered
            // The size is known before the text is built: a long replacement for a short, frequent target
            // (or ten nested replaces) would otherwise build terabytes.
            let growth = replacement.utf8.count - target.utf8.count
            // Counted only when even the most occurrences possible could pass the limit.
            if growth > 0,
                source.utf8.count + source.utf8.count / target.utf8.count * growth > environment.maxOutput
            {
                var occurrences = 0
                if target.utf8.count == 1, let byte = target.utf8.first {
                    occurrences = source.utf8.reduce(0) { $1 == byte ? $0 + 1 : $0 }
                } else {
                    var rest = source.startIndex..<source.endIndex
                    while let found = source.range(of: target, range: rest) {
                        occurrences += 1
                        rest = found.upperBound..<source.endIndex
                    }
                }
                try within(environment, source.utf8.count + occurrences * growth, name, position)
            }
            return .string(source.replacingOccurrences(of: target, with: replacement))
        case "size":
            try need(1)
            switch params[0] {
            case .string(let text): return .number(Double(text.count))
            case .json(.object(let members)): return .number(Double(members.count))
            case .map(let members): return .number(Double(members.count))
            default: return .number(Double(params[0].iterationItems.count))
            }
        case "array":
            return .list(params)
        case "join":
            try need(2)
            let separator = params[0].rendered
            let items = params.count == 2 ? params[1].iterationItems.map(\.value) : Array(params.dropFirst())
            let texts = items.map(\.rendered)
            let separators = max(0, texts.count - 1).multipliedReportingOverflow(by: separator.utf8.count)
            try within(
                environment,
                separators.overflow ? .max : texts.reduce(separators.partialValue) { $0 + $1.utf8.count },
                name, position)
            return .string(texts.joined(separator: separator))
        case "math":
            try need(3)
            return try math(params[0], params[1].rendered, params[2], position: position)
        case "base64":
            try need(1)
            if hash["decode"]?.isTruthy == true {
                var text = params[0].rendered
                while text.utf8.count % 4 != 0 { text += "=" }
                guard let data = Data(base64Encoded: text) else {
                    throw Failure(message: "base64: not valid base64", position: position)
                }
                return .string(String(decoding: data, as: UTF8.self))
            }
            var encoded = Data(params[0].rendered.utf8).base64EncodedString()
            if hash["padding"] == .bool(false) {
                encoded = String(encoded.reversed().drop { $0 == "=" }.reversed())
            }
            return .string(encoded)
        case "urlEncode":
            try need(1)
            if hash["decode"]?.isTruthy == true {
                return .string(TargetDecoding.percentDecode(params[0].rendered, plusIsSpace: true))
            }
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._*")
            let encoded = params[0].rendered.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
            return .string(encoded.replacingOccurrences(of: "%20", with: "+"))
        case "val":
            try need(1)
            if params[0] != .null { return params[0] }
            return hash["default"] ?? .null
        default:
            throw Failure(message: "unknown helper \(name)", position: position)
        }
    }

    /// Equal as numbers when both read as numbers, else as rendered text.
    static func equal(_ left: TemplateValue, _ right: TemplateValue) -> Bool {
        if let a = left.number, let b = right.number { return a == b }
        return left.rendered == right.rendered
    }

    /// -1, 0 or 1: as numbers when both read as numbers, else as text.
    static func compare(_ left: TemplateValue, _ right: TemplateValue) -> Int {
        if let a = left.number, let b = right.number { return a < b ? -1 : (a == b ? 0 : 1) }
        let a = left.rendered
        let b = right.rendered
        return a < b ? -1 : (a == b ? 0 : 1)
    }

    private static func math(
        _ left: TemplateValue, _ operation: String, _ right: TemplateValue, position: Int
    )
        throws(Failure) -> TemplateValue
    {
        guard let a = left.number, let b = right.number else {
            throw Failure(message: "math needs two numbers", position: position)
        }
        switch operation {
        case "+": return .number(a + b)
        case "-": return .number(a - b)
        case "*": return .number(a * b)
        case "/":
            guard b != 0 else { throw Failure(message: "math: division by zero", position: position) }
            let quotient = a / b
            // Integer operands divide as integers, as in WireMock.
            return .number(a.rounded() == a && b.rounded() == b ? quotient.rounded(.towardZero) : quotient)
        case "%":
            guard b != 0 else { throw Failure(message: "math: division by zero", position: position) }
            return .number(a.truncatingRemainder(dividingBy: b))
        default:
            throw Failure(message: "math: unknown operator '\(operation)'", position: position)
        }
    }

    private static func jsonPath(
        _ document: TemplateValue, _ expression: String, default fallback: TemplateValue?, maxOutput: Int,
        position: Int
    ) throws(Failure) -> TemplateValue {
        let json: JSONValue
        switch document {
        case .json(let value):
            json = value
        case .null:
            return fallback ?? .null
        default:
            guard let value = JSONValue.parseOrNil(document.rendered) else {
                if let fallback { return fallback }
                throw Failure(message: "jsonPath: the document is not valid JSON", position: position)
            }
            json = value
        }
        let path: JSONPath
        do {
            path = try JSONPath(expression)
        } catch {
            throw Failure(
                message: "jsonPath: invalid expression '\(expression)': \(error)", position: position)
        }
        let results = path.evaluate(json)
        if JSONValue.serializedSize(of: results, exceeds: maxOutput) {
            throw Failure(message: "jsonPath: the results exceed \(maxOutput) bytes", position: position)
        }
        if path.isDefinite {
            guard let first = results.first else { return fallback ?? .null }
            return TemplateValue(json: first)
        }
        return .json(.array(results))
    }

    // MARK: - Dates

    private static func now(
        _ hash: [String: TemplateValue], environment: TemplateEnvironment, position: Int
    ) throws(Failure) -> TemplateValue {
        var date = environment.now
        var timeZone = TimeZone(identifier: "UTC")!  // allowed: UTC always exists
        if let zone = hash["timezone"]?.rendered {
            guard let value = TimeZone(identifier: zone) else {
                throw Failure(message: "now: unknown timezone '\(zone)'", position: position)
            }
            timeZone = value
        }
        if let offset = hash["offset"]?.rendered {
            date = try apply(offset: offset, to: date, timeZone: timeZone, position: position)
        }
        switch hash["format"]?.rendered {
        case "epoch"?: return .number((date.timeIntervalSince1970 * 1000).rounded(.down))
        case "unix"?: return .number(date.timeIntervalSince1970.rounded(.down))
        case let pattern?: return .string(format(date, pattern, timeZone))
        // ISO 8601; `XXX` is `Z` in UTC.
        case nil: return .string(format(date, "yyyy-MM-dd'T'HH:mm:ssXXX", timeZone))
        }
    }

    static func format(_ date: Date, _ pattern: String, _ timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }

    /// `3 days`, `-24 seconds`, `1 years`…
    private static func apply(offset: String, to date: Date, timeZone: TimeZone, position: Int)
        throws(Failure) -> Date
    {
        let parts = offset.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, let amount = Int(parts[0]) else {
            throw Failure(message: "now: offset must be like '3 days', not '\(offset)'", position: position)
        }
        var unit = parts[1].lowercased()
        if unit.hasSuffix("s") { unit.removeLast() }
        let component: Calendar.Component
        switch unit {
        case "second": component = .second
        case "minute": component = .minute
        case "hour": component = .hour
        case "day": component = .day
        case "week": component = .weekOfYear
        case "month": component = .month
        case "year": component = .year
        default:
            throw Failure(message: "now: unknown offset unit '\(parts[1])'", position: position)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        guard let result = calendar.date(byAdding: component, value: amount, to: date) else {
            throw Failure(message: "now: offset '\(offset)' is out of range", position: position)
        }
        return result
    }

    /// A template number as an `Int`, truncated toward zero; nil for NaN, infinities and
    /// numbers beyond ±2^53 (which a request can supply: `1e99`), which `Int(_:)` would trap on.
    private static func whole(_ number: Double) -> Int? {
        guard number.isFinite, abs(number) <= 9_007_199_254_740_992 else { return nil }
        return Int(number)
    }

    // MARK: - Random values

    private static func randomValue(_ hash: [String: TemplateValue], position: Int) throws(Failure)
        -> TemplateValue
    {
        let type = hash["type"]?.rendered.uppercased() ?? "ALPHANUMERIC"
        if type == "UUID" { return .string(UUID().uuidString.lowercased()) }
        guard let length = hash["length"]?.number.flatMap(whole), (0...100_000).contains(length) else {
            throw Failure(message: "randomValue needs length=N (0 to 100000)", position: position)
        }
        let lower = "abcdefghijklmnopqrstuvwxyz"
        let digits = "0123456789"
        let alphabet: String
        switch type {
        case "ALPHANUMERIC": alphabet = lower + lower.uppercased() + digits
        case "ALPHABETIC": alphabet = lower + lower.uppercased()
        case "NUMERIC": alphabet = digits
        case "ALPHANUMERIC_AND_SYMBOLS":
            alphabet = lower + lower.uppercased() + digits + "!@#$%^&*()-_=+[]{};:,.<>/?"
        case "HEXADECIMAL": alphabet = digits + "abcdef"
        default:
            throw Failure(
                message:
                    "randomValue: unknown type '\(type)' (ALPHANUMERIC, ALPHABETIC, NUMERIC, ALPHANUMERIC_AND_SYMBOLS, HEXADECIMAL, UUID)",
                position: position)
        }
        let characters = Array(alphabet)
        var text = String((0..<length).map { _ in characters.randomElement()! })  // allowed: never empty
        if hash["uppercase"]?.isTruthy == true { text = text.uppercased() }
        return .string(text)
    }
}
