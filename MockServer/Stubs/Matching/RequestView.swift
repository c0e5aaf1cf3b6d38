import CourierPrimitives
import Foundation

/// A request prepared for matching: cookies, body text and multipart parts worked out once, lazily.
final class RequestView {
    let request: ServerRequest
    private var cachedBody: Data?
    private var cachedCookies: [(String, String)]?
    private var cachedParts: [MultipartPart]??

    init(_ request: ServerRequest) {
        self.request = request
    }

    /// The body bytes (read from the spill file when needed; empty when unreadable).
    var body: Data {
        if let cachedBody { return cachedBody }
        let body = (try? request.bodyData()) ?? Data()
        cachedBody = body
        return body
    }

    /// The body as JSON (nil when it is not), parsed once for the request (`ServerRequest.bodyJSON`).
    var json: JSONValue? { try? request.bodyJSON.get() }

    /// Cookies from every `Cookie` header, in order.
    var cookies: [(String, String)] {
        if let cachedCookies { return cachedCookies }
        let cookies = request.cookies.map { ($0.name, $0.value) }
        cachedCookies = cookies
        return cookies
    }

    /// The parts of a `multipart/*` body, or nil when the body is not multipart.
    var multipartParts: [MultipartPart]? {
        if let cachedParts { return cachedParts }
        let parts = MultipartPart.parse(contentType: request.headers["Content-Type"], body: body)
        cachedParts = .some(parts)
        return parts
    }
}

/// One part of a multipart body.
package struct MultipartPart {
    /// RFC 2046 §5.1.1 allows boundaries of 1 to 70 characters. A longer one is refused rather than searched
    /// for: finding an n-byte delimiter costs up to n steps per body byte.
    package static let maxBoundaryLength = 70

    /// The part's header fields.
    package var headers: ServerHeaders
    /// The part's content.
    package var body: Data

    /// Splits a multipart body at its boundary; nil when the content type is not multipart or has no boundary.
    package static func parse(contentType: String?, body: Data) -> [MultipartPart]? {
        guard let contentType, contentType.lowercased().hasPrefix("multipart/") else { return nil }
        var boundary: String?
        for parameter in contentType.split(separator: ";").dropFirst() {
            let trimmed = parameter.trimmingWhitespace()
            if trimmed.lowercased().hasPrefix("boundary=") {
                boundary = String(trimmed.dropFirst(9)).trimmed(of: "\"")
            }
        }
        // Parsed here rather than with `MediaType.boundary(of:)`: the fuzz targets build this file without
        // the Courier module.
        guard let boundary, !boundary.isEmpty, boundary.utf8.count <= Self.maxBoundaryLength else {
            return nil
        }
        let bytes = [UInt8](body)
        let delimiter = Array("--\(boundary)".utf8)
        var positions: [Int] = []
        var index = 0
        while index + delimiter.count <= bytes.count {
            if bytes[index] == delimiter[0], bytes[index..<index + delimiter.count].elementsEqual(delimiter) {
                positions.append(index)
                index += delimiter.count
            } else {
                index += 1
            }
        }
        var parts: [MultipartPart] = []
        for (start, end) in zip(positions, positions.dropFirst()) {
            var partStart = start + delimiter.count
            if partStart + 1 < bytes.count, bytes[partStart] == 13, bytes[partStart + 1] == 10 {
                partStart += 2
            }
            var partEnd = end
            if partEnd >= 2, bytes[partEnd - 2] == 13, bytes[partEnd - 1] == 10 { partEnd -= 2 }
            guard partStart <= partEnd else { continue }
            let part = Array(bytes[partStart..<partEnd])
            var headerEnd: Int?
            if part.count >= 4 {
                for cursor in 0...(part.count - 4)
                where part[cursor] == 13 && part[cursor + 1] == 10 && part[cursor + 2] == 13
                    && part[cursor + 3] == 10
                {
                    headerEnd = cursor
                    break
                }
            }
            var headers = ServerHeaders()
            var content = part[...]
            if let headerEnd {
                let text = String(decoding: part[0..<headerEnd], as: UTF8.self)
                for line in text.components(separatedBy: "\r\n") {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers.add(
                        name: String(line[..<colon]),
                        value: Substring(line[line.index(after: colon)...]).trimmingWhitespace().description)
                }
                content = part[(headerEnd + 4)...]
            } else if part.starts(with: [13, 10]) {
                content = part[2...]
            }
            parts.append(MultipartPart(headers: headers, body: Data(content)))
        }
        return parts
    }
}
