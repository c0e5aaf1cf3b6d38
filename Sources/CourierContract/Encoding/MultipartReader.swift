import Courier
import Foundation

/// Reads a multipart body segment by segment, opening each file only when it is reached.
///
/// A file part sends exactly the length measured when the body was built: a file that
/// shrank meanwhile fails the transfer with `.invalidBody` rather than sending a body
/// shorter than its `Content-Length`.
final class MultipartReader: BodyStreamReader {
    private let segments: [MultipartSegment]
    private var index = 0
    private var offset = 0
    private var handle: FileHandle?
    private var fileOpened = false
    private var remainingInFile: Int64 = 0

    init(segments: [MultipartSegment]) { self.segments = segments }

    func read(upTo maxLength: Int) throws -> Data {
        while index < segments.count {
            switch segments[index] {
            case .data(let data):
                if offset < data.count {
                    let end = min(data.count, offset + maxLength)
                    let chunk = data.subdata(in: data.startIndex + offset..<data.startIndex + end)
                    offset = end
                    return chunk
                }
            case .file(let url, let length):
                if !fileOpened {
                    do {
                        handle = try FileHandle(forReadingFrom: url)
                    } catch {
                        throw CourierError(.invalidBody, "cannot open \(url.path)", underlying: error)
                    }
                    fileOpened = true
                    remainingInFile = length
                }
                if let handle, remainingInFile > 0 {
                    let wanted = Int(min(Int64(maxLength), remainingInFile))
                    let chunk: Data
                    do {
                        chunk = try handle.read(upToCount: wanted) ?? Data()
                    } catch {
                        throw CourierError(.invalidBody, "cannot read \(url.path)", underlying: error)
                    }
                    if chunk.isEmpty {
                        throw CourierError(
                            .invalidBody, "\(url.path) became shorter than its \(length) bytes while sending")
                    }
                    remainingInFile -= Int64(chunk.count)
                    return chunk
                }
                closeFile()
            }
            index += 1
            offset = 0
            fileOpened = false
        }
        return Data()
    }

    func close() { closeFile() }

    private func closeFile() {
        try? handle?.close()
        handle = nil
    }
}
