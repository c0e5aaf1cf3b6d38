import Courier
import Foundation

/// The `Cache-Control` directives a private cache acts on (RFC 9111 §5.2), from a request or
/// a response. Unknown directives are ignored; a malformed number ignores its directive.
struct CacheControl: Sendable, Hashable {
    var noStore = false
    var noCache = false
    var isPrivate = false
    var mustRevalidate = false
    var onlyIfCached = false
    var maxAge: Int?
    var minFresh: Int?
    /// `max-stale` was given: with a number, that many seconds; without one, any staleness.
    var maxStale: Int??

    init(_ headers: HTTPHeaders) {
        for value in headers.values(for: "Cache-Control") {
            for directive in value.split(separator: ",") {
                let parts = directive.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
                let argument = parts.count > 1 ? Self.unquoted(parts[1]) : nil
                let seconds = argument.flatMap { Int($0) }.map { max(0, $0) }
                switch name {
                case "no-store": noStore = true
                case "no-cache": noCache = true
                case "private": isPrivate = true
                case "must-revalidate", "proxy-revalidate": mustRevalidate = true
                case "only-if-cached": onlyIfCached = true
                case "max-age": if let seconds, maxAge == nil { maxAge = seconds }
                case "min-fresh": if let seconds { minFresh = seconds }
                case "max-stale": maxStale = .some(seconds)
                default: continue
                }
            }
        }
        // `Pragma: no-cache` in a request without Cache-Control means no-cache (RFC 9111 §5.4).
        if headers["Cache-Control"] == nil,
            headers.values(for: "Pragma").contains(where: { $0.lowercased().contains("no-cache") })
        {
            noCache = true
        }
    }

    private static func unquoted(_ text: Substring) -> String {
        var value = text.trimmingCharacters(in: .whitespaces)
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            value = String(value.dropFirst().dropLast())
        }
        return value
    }
}
