import Foundation

/// Media types: guessed from file extensions, and compared without their parameters.
package enum MediaType {
    /// The type of a URL-encoded form body.
    package static let form = "application/x-www-form-urlencoded"

    /// A media type for a file extension, or `application/octet-stream`.
    package static func guess(forExtension ext: String) -> String {
        switch ext.lowercased() {
        case "json": "application/json"
        case "txt": "text/plain; charset=utf-8"
        case "html", "htm": "text/html; charset=utf-8"
        case "csv": "text/csv"
        case "xml": "application/xml"
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "heic": "image/heic"
        case "mp4", "m4v": "video/mp4"
        case "mov": "video/quicktime"
        case "webm": "video/webm"
        case "mp3": "audio/mpeg"
        case "m4a": "audio/mp4"
        case "pdf": "application/pdf"
        case "zip": "application/zip"
        default: "application/octet-stream"
        }
    }

    /// The `type/subtype` part of a `Content-Type` value, lowercased, without parameters.
    package static func essence(of contentType: String) -> String {
        let head = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return head.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The `boundary` parameter of a multipart `Content-Type` value, unquoted; nil when absent
    /// or empty.
    package static func boundary(of contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary"
            else { continue }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            return value.isEmpty ? nil : value
        }
        return nil
    }
}
