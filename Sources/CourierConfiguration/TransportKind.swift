import Courier

/// Which transport to use, by name: `"urlsession"`, `"curl"`, or the name of any other
/// `NamedTransport` a program links (compared case-insensitively). A struct with static constants, so
/// that transports from outside Courier are named the same way.
public struct TransportKind: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The lowercase name, as written in `courier.json` and `COURIER_TRANSPORT`.
    public let name: String

    /// Foundation's URLSession (`URLSessionTransport`).
    public static let urlsession = TransportKind(checkedName: "urlsession")
    /// libcurl (`CurlTransport` in `CourierCurl`).
    public static let curl = TransportKind(checkedName: "curl")

    private init(checkedName: String) { name = checkedName }

    /// The kind with this name, lowercased. Whether a transport has the name is known only where the
    /// program's transports are listed (`Configuration.makeTransport(choosingFrom:)`).
    /// - Throws: `CourierError` with code `.invalidConfiguration` for a name that is empty or has
    ///   characters other than letters, digits, `-`, `_` and `.`.
    public init(name: String) throws(CourierError) {
        let lower = name.trimmingWhitespace().lowercased()
        let allowed = lower.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)
        }
        guard !lower.isEmpty, allowed else {
            throw CourierError(
                .invalidConfiguration,
                "transport \(name.debugDescription) is not a transport name (letters, digits, -, _ and .)")
        }
        self.init(checkedName: lower)
    }

    /// Reads a transport name.
    /// - Throws: `DecodingError.dataCorrupted` naming the known transports.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(name: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    /// Writes the name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    public var description: String { name }
}
