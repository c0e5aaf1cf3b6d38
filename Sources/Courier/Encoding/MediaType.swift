import Foundation

/// Media types Courier guesses from file extensions.
public enum MediaType {
    /// A media type for a file extension, or `application/octet-stream`.
    public static func guess(forExtension ext: String) -> String {
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
    public static func essence(of contentType: String) -> String {
        let head = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return head.trimmingCharacters(in: .whitespaces).lowercased()
    }
}
