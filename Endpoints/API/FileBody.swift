import Courier
import Foundation

/// A request body that is one file, streamed from disk as it is sent (a video upload).
public struct FileBody: ParameterConvertible {
    /// The file to send.
    public var file: URL
    /// Its media type, sent as `Content-Type`.
    public var contentType: String

    /// Creates a file body.
    public init(_ file: URL, contentType: String) {
        self.file = file
        self.contentType = contentType
    }

    /// Sets the body to the file, never reading it into memory.
    /// - Throws: `CourierError` with code `.invalidBody` when the file cannot be read.
    public func encode(into request: inout HTTPRequest) throws {
        guard FileManager.default.isReadableFile(atPath: file.path) else {
            throw CourierError(.invalidBody, "cannot read \(file.path)")
        }
        request.body = .file(file)
        request.urlRequest.setValue(contentType, forHTTPHeaderField: "Content-Type")
    }
}
