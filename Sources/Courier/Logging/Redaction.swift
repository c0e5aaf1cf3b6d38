import Foundation

/// Hides secrets (tokens, passwords, cookies) before anything is logged or rendered.
public enum Redaction {
    /// What replaces a secret.
    public static let placeholder = "<redacted>"

    /// Header names whose values are always hidden, lowercased.
    public static let sensitiveHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
        "x-auth-token", "x-csrf-token",
    ]

    /// Query parameter names whose values are always hidden, lowercased.
    public static let sensitiveQueryNames: Set<String> = [
        "token", "access_token", "refresh_token", "id_token", "password", "api_key", "apikey",
        "key", "secret", "client_secret", "signature", "sig",
    ]

    /// Whether a header's value must be hidden.
    public static func isSensitive(header name: String) -> Bool {
        let lower = name.lowercased()
        return sensitiveHeaders.contains(lower) || lower.contains("token")
            || lower.contains("secret") || lower.contains("password")
    }

    /// The URL with user info and sensitive query values hidden.
    public static func redact(url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return url.absoluteString
        }
        if components.password != nil { components.password = placeholder }
        if let items = components.queryItems {
            components.queryItems = items.map { item in
                sensitiveQueryNames.contains(item.name.lowercased())
                    ? URLQueryItem(name: item.name, value: placeholder) : item
            }
        }
        return components.string ?? url.absoluteString
    }
}
