import Courier
import Foundation
import MockServer

/// Finds file parts in a `multipart/form-data` body (RFC 7578). Small bodies only.
enum MultipartParser {
    /// The content of the first part whose `name` is `field`, or `nil`.
    static func filePart(named field: String, in body: Data, contentType: String) -> Data? {
        file(named: field, in: body, contentType: contentType)?.data
    }

    /// The bytes and the declared `Content-Type` (nil when the part has none) of the part named
    /// `field`.
    static func file(named field: String, in body: Data, contentType: String) -> (
        data: Data, contentType: String?
    )? {
        guard let boundary = MediaType.boundary(of: contentType),
            boundary.utf8.count <= MultipartPart.maxBoundaryLength
        else { return nil }
        let delimiter = Data("--\(boundary)".utf8)
        let headerEnd = Data("\r\n\r\n".utf8)
        var searchStart = body.startIndex
        var partStarts: [Int] = []
        while let range = body.range(of: delimiter, in: searchStart..<body.endIndex) {
            partStarts.append(range.upperBound)
            searchStart = range.upperBound
        }
        for (index, start) in partStarts.enumerated() where index + 1 < partStarts.count {
            let end = partStarts[index + 1] - delimiter.count
            guard start < end, let split = body.range(of: headerEnd, in: start..<end) else { continue }
            let head = String(decoding: body[start..<split.lowerBound], as: UTF8.self)
            guard disposition(head, names: field) else { continue }
            var contentEnd = end
            if contentEnd - split.upperBound >= 2, body[contentEnd - 2] == 0x0D, body[contentEnd - 1] == 0x0A
            {
                contentEnd -= 2
            }
            let type = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-type:") }
                .map { $0.dropFirst("content-type:".count).trimmingCharacters(in: .whitespaces) }
            return (Data(body[split.upperBound..<contentEnd]), type.flatMap { $0.isEmpty ? nil : $0 })
        }
        return nil
    }

    static func disposition(_ head: String, names field: String) -> Bool {
        for line in head.split(whereSeparator: \.isNewline) {
            let lowered = line.lowercased()
            guard lowered.hasPrefix("content-disposition:") else { continue }
            return lowered.contains("name=\"\(field.lowercased())\"")
                || lowered.contains("name=\(field.lowercased())")
        }
        return false
    }
}
