import CourierPrimitives
import Foundation

/// Bodies of binary media types served as valid files of that type: an example or generated value that is
/// not one (a schema's `format: binary` string, a placeholder) becomes the smallest file that decodes.
enum BinaryBodies {
    /// Each type's signature and its smallest valid file: a 1×1 image, a one-page PDF.
    static let samples: [String: (signature: [UInt8], file: Data)] = [
        "image/png": (
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
            decode(
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR42mP4DwABAQEAHLCMmQAAAABJRU5ErkJggg=="
            )
        ),
        "image/jpeg": (
            [0xFF, 0xD8, 0xFF],
            decode(
                "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19i"
                    + "Z2hnPk1xeXBkeFxlZ2P/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAAB//EABQQAQAAAAAAAAAAAAAAAAAAAAD/"
                    + "2gAIAQEAAD8AQH//2Q==")
        ),
        "image/gif": (
            [0x47, 0x49, 0x46, 0x38], decode("R0lGODdhAQABAIEAAP///wAAAAAAAAAAACwAAAAAAQABAAAIBAABBAQAOw==")
        ),
        "image/webp": ([0x52, 0x49, 0x46, 0x46], decode("UklGRhwAAABXRUJQVlA4TA8AAAAvAAAAAAcQ/Y/+ByKi/wEA")),
        "application/pdf": ([0x25, 0x50, 0x44, 0x46, 0x2D], Data(pdf.utf8)),
    ]

    /// A PDF of one empty 1-inch page, its cross-reference offsets exact.
    static let pdf = """
        %PDF-1.4
        1 0 obj
        <</Type/Catalog/Pages 2 0 R>>
        endobj
        2 0 obj
        <</Type/Pages/Kids[3 0 R]/Count 1>>
        endobj
        3 0 obj
        <</Type/Page/Parent 2 0 R/MediaBox[0 0 72 72]>>
        endobj
        xref
        0 4
        0000000000 65535 f\u{20}
        0000000009 00000 n\u{20}
        0000000054 00000 n\u{20}
        0000000105 00000 n\u{20}
        trailer
        <</Size 4/Root 1 0 R>>
        startxref
        168
        %%EOF

        """

    static func decode(_ base64: String) -> Data {
        // The samples are constants, each decoded and checked by the tests.
        Data(base64Encoded: base64) ?? Data()
    }

    /// The bytes to send for `value` as `essence` (`image/png`): the value's own bytes when they are already
    /// a file of the type (as text, or base64), else the type's smallest file. Nil for a type without
    /// a sample, whose value is sent as it is.
    static func bytes(for value: JSONValue, as essence: String) -> Data? {
        let type = essence == "image/jpg" ? "image/jpeg" : essence
        guard let sample = samples[type] else { return nil }
        if case .string(let text) = value {
            let raw = Data(text.utf8)
            if raw.starts(with: sample.signature) { return raw }
            if let decoded = Data(base64Encoded: text), decoded.starts(with: sample.signature) {
                return decoded
            }
        }
        return sample.file
    }
}
