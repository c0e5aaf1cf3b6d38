import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The body of a request a `URLProtocol` answers, wherever URLSession put it.
enum UploadBody {
    /// Reads a body stream to its end.
    static func read(_ stream: InputStream) -> Data {
        var data = Data()
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            data.append(buffer, count: count)
        }
        return data
    }

    /// An upload task's body (`uploadTask(with:from:)`, `uploadTask(with:fromFile:)`).
    ///
    /// FoundationNetworking keeps it in the task, not in the request, and gives a `URLProtocol` no
    /// public way to it; the task's stored `knownBody` (data or a file) is read by reflection. Where the
    /// field is absent (another Foundation), nil, and the request's own body is all there is.
    /// - Throws: the file's read error, for an upload from a file that cannot be read: answered
    ///   as a request without its body, it would be another request.
    static func data(of task: URLSessionTask) throws -> Data? {
        var mirror: Mirror? = Mirror(reflecting: task)
        while let current = mirror {
            for child in current.children where child.label == "knownBody" { return try payload(child.value) }
            mirror = current.superclassMirror
        }
        return nil
    }

    private static func payload(_ value: Any) throws -> Data? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional || mirror.displayStyle == .enum,
            let inner = mirror.children.first
        else { return nil }
        switch inner.value {
        case let data as Data: return data
        case let data as DispatchData: return Data(data)
        case let url as URL: return try Data(contentsOf: url)
        default: return mirror.displayStyle == .optional ? try payload(inner.value) : nil
        }
    }
}
