import Courier
import Foundation

/// The `Cache-Control` directives a private cache acts on (RFC 9111 §5.2), from a request or
/// a response.
///
/// Every line is read as one comma-separated list, commas inside quoted strings included in
/// their string. A directive name is a token compared without regard to case; an argument is
/// a token or a quoted string right after `=`. Unknown directives are ignored, and so is
/// `s-maxage` and `proxy-revalidate`, which bind shared caches only. The first `max-age`
/// counts; when its argument is not a number of seconds, the response is stale at once
/// (§4.2.1), and a request's is ignored.
struct CacheControl: Sendable, Hashable {
    var noStore = false
    var noCache = false
    /// The fields a qualified `no-cache="a, b"` names, lower-cased: never served unrevalidated,
    /// so never stored.
    var noCacheFields: Set<String> = []
    var isPrivate = false
    var isPublic = false
    var mustRevalidate = false
    var mustUnderstand = false
    var onlyIfCached = false
    var maxAge: Int?
    var minFresh: Int?
    /// `max-stale` was given: with a number, that many seconds; without one, any staleness.
    var maxStale: Int??
    /// How long after it turns stale a response may still be served while it is revalidated.
    var staleWhileRevalidate: Int?
    /// How long after it turns stale a response may still stand in for a server error.
    var staleIfError: Int?

    /// The directives of `headers`; `isRequest` also reads `Pragma: no-cache` (§5.4), which
    /// means nothing in a response.
    init(_ headers: HTTPHeaders, isRequest: Bool = false) {
        var sawMaxAge = false
        for (name, argument) in Self.directives(headers.values(for: "Cache-Control")) {
            let seconds = argument.flatMap(CachedResponse.deltaSeconds).map { Int(min($0, 2_147_483_648)) }
            switch name {
            case "no-store": noStore = true
            case "no-cache":
                if let argument, !isRequest {
                    noCacheFields.formUnion(
                        argument.split(separator: ",").map {
                            $0.trimmingCharacters(in: .whitespaces).lowercased()
                        }
                        .filter { !$0.isEmpty })
                } else {
                    noCache = true
                }
            case "private": if argument == nil { isPrivate = true }
            case "public": isPublic = true
            case "must-revalidate": mustRevalidate = true
            case "must-understand": mustUnderstand = true
            case "only-if-cached": onlyIfCached = true
            case "max-age":
                guard !sawMaxAge else { continue }
                sawMaxAge = true
                maxAge = seconds ?? (isRequest ? nil : 0)
            case "min-fresh": if let seconds, minFresh == nil { minFresh = seconds }
            case "max-stale":
                guard maxStale == nil else { continue }
                if argument == nil { maxStale = .some(nil) } else if let seconds { maxStale = .some(seconds) }
            case "stale-while-revalidate":
                if let seconds, staleWhileRevalidate == nil { staleWhileRevalidate = seconds }
            case "stale-if-error": if let seconds, staleIfError == nil { staleIfError = seconds }
            default: continue
            }
        }
        if isRequest, headers["Cache-Control"] == nil,
            headers.values(for: "Pragma").contains(where: { $0.lowercased().contains("no-cache") })
        {
            noCache = true
        }
    }

    /// The directives of `lines`, in order: lower-cased names and their unquoted arguments.
    /// A malformed element (an empty or non-token name, a space around `=`, an unterminated
    /// quote) is skipped.
    static func directives(_ lines: [String]) -> [(name: String, argument: String?)] {
        var result: [(String, String?)] = []
        for line in lines {
            for element in elements(of: line) {
                let parts = element.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(parts[0])
                guard !name.isEmpty, name.utf8.allSatisfy(\.isTokenCharacter) else { continue }
                guard parts.count == 2 else {
                    result.append((name.lowercased(), nil))
                    continue
                }
                let raw = parts[1]
                if raw.hasPrefix("\"") {
                    guard raw.count >= 2, raw.hasSuffix("\"") else { continue }
                    result.append((name.lowercased(), unescaped(raw.dropFirst().dropLast())))
                } else if !raw.isEmpty, raw.utf8.allSatisfy(\.isTokenCharacter) {
                    result.append((name.lowercased(), String(raw)))
                }
            }
        }
        return result
    }

    /// The comma-separated elements of a list, trimmed; commas inside a quoted string stay in it.
    private static func elements(of line: String) -> [Substring] {
        var elements: [Substring] = []
        var start = line.startIndex
        var quoted = false
        var escaped = false
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if escaped {
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == "," && !quoted {
                elements.append(line[start..<index])
                start = line.index(after: index)
            }
            index = line.index(after: index)
        }
        elements.append(line[start..<line.endIndex])
        return elements.map { $0.trimmingCharacters(in: .whitespaces)[...] }.filter { !$0.isEmpty }
    }

    private static func unescaped(_ text: Substring) -> String {
        var result = ""
        var escaped = false
        for character in text {
            if !escaped && character == "\\" {
                escaped = true
                continue
            }
            escaped = false
            result.append(character)
        }
        return result
    }
}
