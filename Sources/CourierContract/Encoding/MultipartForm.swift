import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `multipart/form-data` body (RFC 7578) whose file parts stream from disk.
///
/// The body is sent as a `RequestBody.stream` with an exact length computed up front
/// from the file sizes, so a 1 GiB video part is read in 64 KiB chunks as it is sent
/// and never held in memory.
///
/// ```swift
/// var form = MultipartForm()
/// form.append("My video", name: "title")
/// form.appendFile(at: URL(fileURLWithPath: "clip.mp4"), name: "video", contentType: "video/mp4")
/// ```
public struct MultipartForm: ParameterConvertible {
    /// One part of the form: made by the `append` methods.
    package struct Part: Sendable {
        /// Where a part's content comes from.
        package enum Content: Sendable {
            /// Bytes in memory.
            case data(Data)
            /// A file, streamed when the body is sent.
            case file(URL)
        }

        /// The form field name.
        package var name: String
        /// The file name, sent as `filename=` in `Content-Disposition`.
        package var filename: String?
        /// The part's media type, sent as its `Content-Type`.
        package var contentType: String?
        /// The content.
        package var content: Content

        package init(name: String, filename: String? = nil, contentType: String? = nil, content: Content) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.content = content
        }
    }

    /// The boundary between parts.
    public var boundary: String
    /// The parts, in order.
    package var parts: [Part]

    /// Creates an empty form; add its fields with `append` and `appendFile`.
    /// - Parameter boundary: the boundary; nil (the default) for a fresh random one.
    public init(boundary: String? = nil) {
        self.init(boundary: boundary, parts: [])
    }

    /// Creates a form of `parts`, in order.
    package init(boundary: String? = nil, parts: [Part]) {
        self.boundary = boundary ?? Self.randomBoundary()
        self.parts = parts
    }

    /// A random boundary: `courier-` and 32 hexadecimal digits.
    package static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        let hex = String(high, radix: 16) + String(low, radix: 16)
        return "courier-" + String(repeating: "0", count: max(0, 32 - hex.count)) + hex
    }

    /// Appends a text field.
    public mutating func append(_ text: String, name: String) {
        parts.append(Part(name: name, content: .data(Data(text.utf8))))
    }

    /// Appends bytes, as a file when `filename` is given.
    public mutating func append(
        _ data: Data, name: String, filename: String? = nil, contentType: String? = nil
    ) {
        let type = contentType ?? (filename == nil ? nil : "application/octet-stream")
        parts.append(Part(name: name, filename: filename, contentType: type, content: .data(data)))
    }

    /// Appends a file part that streams from disk when the body is sent.
    /// - Parameters:
    ///   - url: the file.
    ///   - name: the form field name.
    ///   - filename: the name sent; default the file's last path component.
    ///   - contentType: the media type; default guessed from the extension.
    public mutating func appendFile(
        at url: URL, name: String, filename: String? = nil, contentType: String? = nil
    ) {
        parts.append(
            Part(
                name: name, filename: filename ?? url.lastPathComponent,
                contentType: contentType ?? MediaType.guess(forExtension: url.pathExtension),
                content: .file(url)))
    }

    /// The `Content-Type` header value, with the boundary.
    package var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Builds the body stream, with its exact length.
    /// - Throws: `CourierError` with code `.invalidParameters` for a bad boundary, or
    ///   `.invalidBody` when a file part is missing or unreadable.
    package func makeBodyStream() throws -> BodyStream {
        let segments = try makeSegments()
        let length = segments.reduce(Int64(0)) { $0 + $1.length }
        return BodyStream(length: length, isReplayable: true) {
            MultipartReader(segments: segments)
        }
    }

    /// Sets the body and `Content-Type: multipart/form-data; boundary=…`. Forms without
    /// file parts are sent from memory; forms with file parts stream.
    /// - Throws: as `makeBodyStream()`, and `.invalidParameters` when the request already
    ///   has a body.
    public func encode(into request: inout TransportRequest) throws {
        try request.requireNoBody(for: "MultipartForm")
        let stream = try makeBodyStream()
        let hasFiles = parts.contains { if case .file = $0.content { true } else { false } }
        request.body = hasFiles ? .stream(stream) : .data(try stream.collect())
        request.headers.replaceOrAdd(name: "Content-Type", value: contentType)
    }

    /// The body as a list of in-memory and file segments.
    func makeSegments() throws -> [MultipartSegment] {
        try Self.validate(boundary: boundary)
        var segments: [MultipartSegment] = []
        var pending = Data()
        for part in parts {
            pending.append(Data("--\(boundary)\r\n".utf8))
            pending.append(Data(Self.headers(for: part).utf8))
            switch part.content {
            case .data(let data):
                pending.append(data)
            case .file(let url):
                segments.append(.data(pending))
                pending = Data()
                segments.append(.file(url, length: try Self.fileSize(url, field: part.name)))
            }
            pending.append(Data("\r\n".utf8))
        }
        pending.append(Data("--\(boundary)--\r\n".utf8))
        segments.append(.data(pending))
        return segments.filter { $0.length > 0 }
    }

    static func headers(for part: Part) -> String {
        var disposition = "Content-Disposition: form-data; name=\"\(escape(part.name))\""
        if let filename = part.filename { disposition += "; filename=\"\(escape(filename))\"" }
        var text = disposition + "\r\n"
        if let contentType = part.contentType {
            text += "Content-Type: \(contentType.filter { $0 != "\r" && $0 != "\n" })\r\n"
        }
        return text + "\r\n"
    }

    /// Escapes a field name or file name as the HTML standard does for multipart forms:
    /// LF as `%0A`, CR as `%0D`, `"` as `%22`. Other characters, including non-ASCII, are
    /// sent as UTF-8.
    package static func escape(_ name: String) -> String {
        var result = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\n": result += "%0A"
            case "\r": result += "%0D"
            case "\"": result += "%22"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func validate(boundary: String) throws {
        let allowed = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=?".utf8)
        guard (1...70).contains(boundary.utf8.count), boundary.utf8.allSatisfy(allowed.contains) else {
            throw CourierError(
                .invalidParameters,
                "multipart boundary \(boundary.debugDescription) must be 1 to 70 letters, digits or '()+_,-./:=?"
            )
        }
    }

    static func fileSize(_ url: URL, field: String) throws -> Int64 {
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            guard (attributes[.type] as? FileAttributeType) == .typeRegular,
                let size = (attributes[.size] as? NSNumber)?.int64Value
            else {
                throw CourierError(.invalidBody, "file for part \(field) is not a regular file: \(url.path)")
            }
            return size
        } catch let error as CourierError {
            throw error
        } catch {
            throw CourierError(
                .invalidBody, "cannot read file for part \(field): \(url.path)", underlying: error)
        }
    }
}

/// One piece of a multipart body.
enum MultipartSegment: Sendable {
    case data(Data)
    case file(URL, length: Int64)

    var length: Int64 {
        switch self {
        case .data(let data): Int64(data.count)
        case .file(_, let length): length
        }
    }
}
