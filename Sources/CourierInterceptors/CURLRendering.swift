import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Renders requests as `curl` command lines for logs and bug reports, with secrets
/// hidden: sensitive headers (`Authorization`, `Cookie`, anything token-, secret- or
/// password-like), sensitive query values and user info, and sensitive fields of JSON
/// and form bodies are replaced with `Redaction.placeholder`. A body that does not parse
/// as its content type says has its `"name": value` and `name=value` pairs redacted.
package enum CURLRendering {
    /// The most body bytes written inline; larger bodies are summarised.
    package static let inlineBodyLimit = 4096

    /// The command for `request`, one option per line.
    /// - Parameters:
    ///   - request: the request.
    ///   - redacting: whether to hide secrets; default `true`. Pass `false` only when the
    ///     user asked to see them.
    package static func command(for request: TransportRequest, redacting: Bool = true) -> String {
        let head = request.urlRequest
        let method = head.httpMethod ?? "GET"
        var lines = ["curl"]
        if method != "GET" { lines.append("-X \(method)") }
        let url = head.url.map { redacting ? Redaction.redact(url: $0) : $0.absoluteString } ?? ""
        lines.append(quote(url))
        for (name, value) in (head.allHTTPHeaderFields ?? [:]).sorted(by: {
            $0.key.lowercased() < $1.key.lowercased()
        }) {
            let shown = redacting && Redaction.isSensitive(header: name) ? Redaction.placeholder : value
            lines.append("-H " + quote("\(name): \(shown)"))
        }
        let fullContentType = head.value(forHTTPHeaderField: "Content-Type") ?? ""
        let contentType = MediaType.essence(of: fullContentType)
        switch request.body {
        case .empty: break
        case .data(let data) where redacting && contentType.hasPrefix("multipart/"):
            lines.append(multipartOption(data, contentType: fullContentType))
        case .data(let data): lines.append(dataOption(data, contentType: redacting ? contentType : nil))
        case .file(let url): lines.append("--data-binary " + quote("@" + url.path))
        case .stream(let stream):
            let size = stream.length.map { "\($0) bytes" } ?? "unknown length"
            lines.append("--data-binary @-  # streamed body, \(size)")
        }
        return lines.joined(separator: " \\\n  ")
    }

    /// The command for a plain `URLRequest` (its `httpBody`, if any, as the body).
    package static func command(for request: URLRequest) -> String {
        command(for: TransportRequest(urlRequest: request))
    }

    /// The `--data-binary` option for an in-memory body; `contentType` nil shows it unredacted.
    private static func dataOption(_ data: Data, contentType: String?) -> String {
        guard data.count <= inlineBodyLimit, let text = String(data: data, encoding: .utf8) else {
            return "--data-binary @-  # \(data.count) bytes, not shown"
        }
        let shown: String
        guard let contentType else { return "--data-binary " + quote(text) }
        if contentType == "application/json" || contentType.hasSuffix("+json") {
            // JSON that does not parse (cut short, or mislabelled) is still redacted, pair by pair.
            shown = Redaction.redactJSON(data) ?? Redaction.redactPairs(in: text)
        } else if contentType == MediaType.form {
            shown = Redaction.redact(pairs: text, with: Redaction.placeholder)
        } else {
            shown = Redaction.redactPairs(in: text)
        }
        return "--data-binary " + quote(shown)
    }

    /// A multipart body with the contents of parts whose names are sensitive
    /// (`name="password"`) hidden; the other parts are shown as they are.
    private static func multipartOption(_ data: Data, contentType: String) -> String {
        guard data.count <= inlineBodyLimit, let text = String(data: data, encoding: .utf8),
            let boundary = MediaType.boundary(of: contentType)
        else {
            return "--data-binary @-  # \(data.count) bytes of multipart, not shown"
        }
        let delimiter = "--" + boundary
        let parts = text.components(separatedBy: delimiter).map { part -> String in
            guard let split = part.range(of: "\r\n\r\n") else { return part }
            let head = part[..<split.lowerBound]
            guard let name = partName(in: head), Redaction.isSensitive(field: name) else { return part }
            // The part's content runs to the line end before the next delimiter.
            let ending = part.hasSuffix("\r\n") ? "\r\n" : ""
            return head + "\r\n\r\n" + Redaction.placeholder + ending
        }
        return "--data-binary " + quote(parts.joined(separator: delimiter))
    }

    /// The `name` of a part's `Content-Disposition`.
    private static func partName(in head: Substring) -> String? {
        guard let start = head.range(of: "name=\"") else { return nil }
        let rest = head[start.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// Quotes `text` for a POSIX shell.
    package static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

extension TransportRequest {
    /// The request as a `curl` command with secrets hidden.
    package var cURLDescription: String { CURLRendering.command(for: self) }
}
