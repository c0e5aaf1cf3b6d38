import Courier
import Foundation

/// The parameters of a social API call: query items plus at most one body.
///
/// A small local encoder so that the enums read as data; it encodes exactly what the
/// contract declares.
struct EndpointParameters: ParameterConvertible {
    /// The body kinds the social API uses.
    enum Body: Sendable {
        case none
        case json(any Encodable & Sendable)
        case file(URL, contentType: String)
        case multipartFile(field: String, file: URL, contentType: String)
    }

    var query: [(name: String, value: String)] = []
    var body: Body = .none

    static let maxInMemoryPartBytes = 8 << 20

    func encode(into request: inout HTTPRequest) throws {
        if !query.isEmpty, let url = request.urlRequest.url {
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
                throw CourierError(.invalidURL, "cannot add query items to \(url)")
            }
            var items = components.percentEncodedQueryItems ?? []
            for (name, value) in query {
                items.append(URLQueryItem(name: Self.escape(name), value: Self.escape(value)))
            }
            components.percentEncodedQueryItems = items
            guard let withQuery = components.url else {
                throw CourierError(.invalidURL, "cannot add query items to \(url)")
            }
            request.urlRequest.url = withQuery
        }
        switch body {
        case .none:
            break
        case .json(let value):
            do {
                request.body = .data(try JSONEncoder.courier.encode(value))
            } catch {
                throw CourierError(.invalidParameters, "cannot encode the JSON body: \(error)")
            }
            request.urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        case .file(let url, let contentType):
            guard FileManager.default.isReadableFile(atPath: url.path) else {
                throw CourierError(.invalidBody, "cannot read \(url.path)")
            }
            request.body = .file(url)
            request.urlRequest.setValue(contentType, forHTTPHeaderField: "Content-Type")
        case .multipartFile(let field, let file, let contentType):
            let size = RequestBody.file(file).length ?? -1
            guard size >= 0, size <= Self.maxInMemoryPartBytes,
                let data = FileManager.default.contents(atPath: file.path)
            else {
                throw CourierError(.invalidBody, "cannot read \(file.path), or it exceeds 8 MiB")
            }
            let boundary = "courier-\(UUID().uuidString)"
            var form = Data()
            form.append(
                Data(
                    ("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; "
                        + "filename=\"\(file.lastPathComponent)\"\r\nContent-Type: \(contentType)\r\n\r\n")
                        .utf8))
            form.append(data)
            form.append(Data("\r\n--\(boundary)--\r\n".utf8))
            request.body = .data(form)
            request.urlRequest.setValue(
                "multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
        }
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters.
    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
}

/// Builds paths from user-supplied segments.
enum PathSegment {
    /// `value` percent-encoded as one path segment; `.` and `..` are encoded so that they
    /// cannot climb the path (the server then refuses them as names).
    static func encode(_ value: String) -> String {
        if value == "." || value == ".." { return value.replacingOccurrences(of: ".", with: "%2E") }
        return EndpointParameters.escape(value)
    }
}
