import Foundation

/// Media types as a document declares them and a request names them.
enum MediaTypes {
    /// `type/subtype`, lowercased, without parameters.
    static func essence(_ value: String) -> String {
        (value.split(separator: ";", maxSplits: 1).first.map(String.init) ?? value)
            .trimmingCharacters(in: .whitespaces).lowercased()
    }

    static func isJSON(_ value: String) -> Bool {
        let type = essence(value)
        return type == "application/json" || type.hasSuffix("+json") || type == "*/*"
            || type == "application/*"
    }

    /// The declared media type a request's `Content-Type` falls under: exact, then `type/*`, then `*/*`.
    static func declared(for contentType: String, in declared: [String]) -> String? {
        let wanted = essence(contentType)
        let slash = wanted.firstIndex(of: "/")
        let range = slash.map { String(wanted[..<$0]) + "/*" }
        return declared.first { essence($0) == wanted }
            ?? declared.first { essence($0) == range }
            ?? declared.first { essence($0) == "*/*" }
    }

    /// The declared media type that best fits an `Accept` field (RFC 9110 §12.5.1): highest quality, then
    /// most specific, then the document's order. Nil when none is acceptable.
    static func negotiate(accept: String?, offered: [String]) -> String? {
        guard let accept, !accept.trimmingCharacters(in: .whitespaces).isEmpty else { return offered.first }
        var ranges: [(range: String, quality: Double, specificity: Int)] = []
        for item in accept.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let range = parts.first?.lowercased(), !range.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 1
            }
            let specificity = range == "*/*" ? 0 : range.hasSuffix("/*") ? 1 : 2
            ranges.append((range, quality, specificity))
        }
        var best: (type: String, quality: Double)?
        for type in offered {
            let essence = essence(type)
            let family = essence.split(separator: "/").first.map(String.init) ?? essence
            let matching = ranges.filter { range in
                range.range == essence || range.range == "*/*" || range.range == family + "/*"
                    || (essence.hasSuffix("/*") && range.range.hasPrefix(family + "/")) || essence == "*/*"
            }
            guard let chosen = matching.max(by: { $0.specificity < $1.specificity }), chosen.quality > 0
            else { continue }
            if chosen.quality > (best?.quality ?? -1) { best = (type, chosen.quality) }
        }
        return best?.type
    }
}
