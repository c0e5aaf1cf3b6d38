import CourierPrimitives
import Foundation

/// HTTP Archive (HAR 1.2) files, the format browsers' developer tools, Charles, Proxyman and mitmproxy
/// export, turned into WireMock mappings and written from them.
///
/// Each entry becomes a stub that answers its method and URL (path and query) with the recorded status,
/// headers and body, and, when the request had a body, only that body (equal JSON, else equal text).
/// Headers that describe the transfer rather than the content (`Content-Length`, `Content-Encoding`,
/// `Transfer-Encoding`, `Connection`, `Date`, HTTP/2's `:status`) are left out: HAR keeps bodies decoded.
/// When two entries share a request, the later one answers, as the later of two WireMock stubs does.
public enum HAR {
    /// Response headers a stub does not replay.
    static let droppedHeaders: Set<String> = [
        "content-length", "transfer-encoding", "connection", "content-encoding", "keep-alive", "date",
    ]

    /// The WireMock mappings for a HAR document's entries, in order.
    /// - Parameter data: the HAR file.
    /// - Returns: one mapping per entry.
    /// - Throws: ``HARError`` naming the entry and the field that is missing or wrong.
    public static func mappings(fromHAR data: Data) throws(HARError) -> [JSONValue] {
        let root: JSONValue
        do {
            root = try JSONValue.parse(data)
        } catch {
            throw HARError("the HAR file is not JSON: \(error)")
        }
        guard case .array(let entries)? = root["log"]?["entries"] else {
            throw HARError("the HAR file has no log.entries array")
        }
        var mappings: [JSONValue] = []
        for (index, entry) in entries.enumerated() {
            mappings.append(try mapping(from: entry, at: index))
        }
        return mappings
    }

    private static func mapping(from entry: JSONValue, at index: Int) throws(HARError) -> JSONValue {
        let place = "log.entries[\(index)]"
        guard let method = entry["request"]?["method"]?.stringValue, !method.isEmpty else {
            throw HARError("\(place).request.method is missing")
        }
        guard let text = entry["request"]?["url"]?.stringValue, let components = URLComponents(string: text)
        else {
            throw HARError("\(place).request.url is missing or not a URL")
        }
        guard let status = entry["response"]?["status"]?.intValue, (100...999).contains(status) else {
            throw HARError("\(place).response.status is missing or not a status code")
        }
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        var request: [String: JSONValue] = ["method": .string(method.uppercased()), "url": .string(target)]
        if let body = entry["request"]?["postData"]?["text"]?.stringValue, !body.isEmpty {
            if let json = try? JSONValue.parse(Data(body.utf8)) {  // allowed: else text
                request["bodyPatterns"] = .array([.object(["equalToJson": json])])
            } else {
                request["bodyPatterns"] = .array([.object(["equalTo": .string(body)])])
            }
        }
        var response: [String: JSONValue] = ["status": .int(Int64(status))]
        var headers: [String: JSONValue] = [:]
        if case .array(let fields)? = entry["response"]?["headers"] {
            for field in fields {
                guard let name = field["name"]?.stringValue, let value = field["value"]?.stringValue,
                    !name.hasPrefix(":"), !droppedHeaders.contains(name.lowercased())
                else { continue }
                switch headers[name] {
                case .string(let first)?: headers[name] = .array([.string(first), .string(value)])
                case .array(let values)?: headers[name] = .array(values + [.string(value)])
                default: headers[name] = .string(value)
                }
            }
        }
        if !headers.isEmpty { response["headers"] = .object(headers) }
        if let content = entry["response"]?["content"]?["text"]?.stringValue, !content.isEmpty {
            if entry["response"]?["content"]?["encoding"]?.stringValue == "base64" {
                guard Data(base64Encoded: content) != nil else {
                    throw HARError("\(place).response.content.text is not base64")
                }
                response["base64Body"] = .string(content)
            } else {
                response["body"] = .string(content)
            }
        }
        return .object(["request": .object(request), "response": .object(response)])
    }
}

/// Why a HAR file could not be read.
public struct HARError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, and in which entry.
    public var message: String

    /// Creates an error.
    /// - Parameter message: what is wrong.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
