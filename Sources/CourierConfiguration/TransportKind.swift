import Courier

/// Which transport to use, by name. A struct with static constants so that more can be
/// added; decodes from `"urlsession"` or `"curl"` (any case).
public struct TransportKind: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The lowercase name, as written in `courier.json` and `COURIER_TRANSPORT`.
    public let name: String

    /// Foundation's URLSession (`URLSessionTransport`).
    public static let urlsession = TransportKind(checkedName: "urlsession")
    /// libcurl (`CurlTransport` in `CourierCurl`).
    public static let curl = TransportKind(checkedName: "curl")
    /// Every known kind.
    public static let all: [TransportKind] = [.urlsession, .curl]

    private init(checkedName: String) { name = checkedName }

    /// The kind with this name, compared case-insensitively.
    /// - Throws: `CourierError` with code `.invalidConfiguration` for an unknown name.
    public init(name: String) throws(CourierError) {
        let lower = name.trimmingWhitespace().lowercased()
        guard let kind = Self.all.first(where: { $0.name == lower }) else {
            throw CourierError(
                .invalidConfiguration,
                "unknown transport \(name.debugDescription); expected one of "
                    + Self.all.map(\.name).joined(separator: ", "))
        }
        self = kind
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
