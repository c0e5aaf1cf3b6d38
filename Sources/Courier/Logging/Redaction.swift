import Foundation

/// Hides secrets (tokens, passwords, cookies) before anything is logged or rendered.
package enum Redaction {
    /// What replaces a secret.
    package static let placeholder = "<redacted>"

    /// Header names whose values are always hidden, lowercased.
    package static let sensitiveHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
        "x-auth-token", "x-csrf-token",
    ]

    /// Query parameter names whose values are always hidden, lowercased.
    package static let sensitiveQueryNames: Set<String> = [
        "token", "access_token", "refresh_token", "id_token", "password", "api_key", "apikey",
        "key", "secret", "client_secret", "signature", "sig",
    ]

    /// Whether a header's value must be hidden: the names above, and any name that says
    /// token, secret, password, signature or key (`api-key`, `X-Goog-Api-Key`,
    /// `Ocp-Apim-Subscription-Key`, `X-Amz-Signature`; not `Keep-Alive`).
    package static func isSensitive(header name: String) -> Bool {
        let lower = name.lowercased()
        if sensitiveHeaders.contains(lower) { return true }
        if lower.contains("token") || lower.contains("secret") || lower.contains("password")
            || lower.contains("signature") || lower.contains("apikey") || lower.contains("api-key")
            || lower.contains("api_key")
        {
            return true
        }
        return lower == "key" || lower.hasSuffix("-key") || lower.hasSuffix("_key")
    }

    /// The URL with the password and sensitive query values shown as `<redacted>`.
    package static func redact(url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return url.absoluteString
        }
        // A token URLComponents accepts as is, swapped for the placeholder at the end.
        let token = "COURIERREDACTEDVALUE"
        if components.password != nil {
            components.percentEncodedPassword = token
        } else if components.user != nil {
            // A user name alone is a credential too (`https://TOKEN@host`, a token as the user).
            components.percentEncodedUser = token
        }
        if let query = components.percentEncodedQuery {
            components.percentEncodedQuery = redact(pairs: query, with: token)
        }
        return (components.string ?? url.absoluteString).replacingOccurrences(of: token, with: placeholder)
    }

    /// `name=value` pairs joined with `&` (a query, a form body) with the values of sensitive
    /// names (`isSensitive(field:)`, percent- and `+`-decoded) replaced by `replacement`.
    package static func redact(pairs text: String, with replacement: String) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].replacingOccurrences(of: "+", with: " ")
            return parts.count == 2 && isSensitive(field: name.removingPercentEncoding ?? name)
                ? parts[0] + "=" + replacement : String(pair)
        }.joined(separator: "&")
    }

    /// A body as text with secrets hidden, for error messages and logs: a JSON body has
    /// the values of sensitive keys (`isSensitive(field:)`) replaced, at any depth; other
    /// text (or JSON cut short) has `"key": "value"` and `key=value` pairs with sensitive
    /// names replaced.
    package static func redact(body: Data) -> String {
        if let json = redactJSON(body) { return json }
        return redactPairs(in: String(decoding: body, as: UTF8.self))
    }

    /// Replaces the values of `"name": "value"`, `"name": number` and `name=value` pairs
    /// whose names are sensitive.
    package static func redactPairs(in text: String) -> String {
        var result = text
        let patterns = [
            #"("([^"\\]+)"\s*:\s*)("(?:[^"\\]|\\.)*"|[^\s,}\]]+)"#,
            #"((?:^|[?&\s])([A-Za-z0-9_.\-\[\]%]+)=)([^&\s]*)"#,
        ]
        for pattern in patterns {
            guard let expression = try? NSRegularExpression(pattern: pattern) else { continue }
            let source = NSString(string: result)
            var output = ""
            var cursor = 0
            for match in expression.matches(in: result, range: NSRange(location: 0, length: source.length)) {
                let name = source.substring(with: match.range(at: 2))
                guard isSensitive(field: name.removingPercentEncoding ?? name) else { continue }
                let value = match.range(at: 3)
                output += source.substring(with: NSRange(location: cursor, length: value.location - cursor))
                output += source.substring(with: value).hasPrefix("\"") ? "\"\(placeholder)\"" : placeholder
                cursor = value.location + value.length
            }
            output += source.substring(from: cursor)
            result = output
        }
        return result
    }

    /// A JSON body with the values of sensitive keys replaced at any depth, keys sorted; nil
    /// when `data` is not JSON.
    package static func redactJSON(_ data: Data) -> String? {
        do {
            let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            let redacted = redactJSONValue(object)
            let output = try JSONSerialization.data(
                withJSONObject: redacted, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
            return String(decoding: output, as: UTF8.self)
        } catch {
            // Not JSON: the nil this function answers, and the caller redacts the body as text. (What
            // was read as JSON, with values replaced by strings, is written as JSON again.)
            return nil
        }
    }

    private static func redactJSONValue(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var result: [String: Any] = [:]
            for (key, child) in object {
                result[key] =
                    isSensitive(field: key) ? placeholder : redactJSONValue(child)
            }
            return result
        }
        if let array = value as? [Any] { return array.map(redactJSONValue) }
        return value
    }

    /// Whether a body field or query name holds a secret: the sensitive query names, or
    /// any name containing "token", "secret" or "password".
    package static func isSensitive(field name: String) -> Bool {
        let lower = name.lowercased()
        return sensitiveQueryNames.contains(lower) || lower.contains("token") || lower.contains("secret")
            || lower.contains("password")
    }
}
