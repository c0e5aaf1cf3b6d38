import Courier
import Foundation

/// In `courier.json`: `"proxy": { "url": "http://proxy.internal:3128", "noProxy": ["localhost"] }`.
extension ProxySettings: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case url, noProxy
    }

    /// Reads proxy settings; `noProxy` may be missing.
    /// - Throws: `DecodingError` for a wrong type; `CourierError` (`.invalidConfiguration`) for an
    ///   unknown key or settings `init(url:noProxy:)` refuses.
    public init(from decoder: any Decoder) throws {
        try ConfigurationKeys.check(decoder, known: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let url = try container.decode(String.self, forKey: .url)
        let noProxy = try container.decodeIfPresent([String].self, forKey: .noProxy) ?? []
        do {
            try self.init(url: url, noProxy: noProxy)
        } catch {
            let path = ResponseDecoding.pathString(decoder.codingPath)
            throw CourierError(.invalidConfiguration, "\(path): \(error.message)", codingPath: path)
        }
    }

    /// Writes the URL (credentials included) and the `noProxy` list.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url.absoluteString, forKey: .url)
        try container.encode(noProxy, forKey: .noProxy)
    }
}
