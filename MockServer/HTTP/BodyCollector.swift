import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Accumulates a request body in memory, moving it to a temporary file once it passes a threshold.
struct BodyCollector {
    private(set) var memory: [UInt8] = []
    private var fileFD: Int32 = -1
    private(set) var filePath: String?

    /// Adds body bytes, spilling to a new file in `directory` when the total exceeds `threshold`.
    /// - Throws: an ``HTTPParseError`` with status 500 when the file cannot be created or written.
    mutating func append(_ bytes: [UInt8], threshold: Int, directory: String) throws(HTTPParseError) {
        if fileFD < 0 && memory.count + bytes.count <= threshold {
            memory.append(contentsOf: bytes)
            return
        }
        if fileFD < 0 {
            let path = directory + "/courier-upload-\(UInt64.random(in: 0...UInt64.max)).body"
            let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                throw HTTPParseError(
                    status: 500,
                    message: "could not store the request body: \(String(cString: strerror(errno)))")
            }
            fileFD = fd
            filePath = path
            let pending = memory
            memory = []
            try write(pending)
        }
        try write(bytes)
    }

    private mutating func write(_ bytes: [UInt8]) throws(HTTPParseError) {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { raw in
                #if canImport(Darwin)
                    Darwin.write(fileFD, raw.baseAddress! + written, raw.count - written)
                #else
                    Glibc.write(fileFD, raw.baseAddress! + written, raw.count - written)
                #endif
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw HTTPParseError(
                    status: 500,
                    message: "could not store the request body: \(String(cString: strerror(errno)))")
            }
            written += result
        }
    }

    /// Ends collection: the in-memory body, or the file holding it.
    mutating func finish() -> (data: Data, file: URL?) {
        if fileFD >= 0 {
            close(fileFD)
            fileFD = -1
            return (Data(), filePath.map { URL(fileURLWithPath: $0) })
        }
        let data = Data(memory)
        memory = []
        return (data, nil)
    }

    /// Drops the body, deleting any spill file.
    mutating func discard() {
        if fileFD >= 0 {
            close(fileFD)
            fileFD = -1
        }
        if let filePath { unlink(filePath) }
        filePath = nil
        memory = []
    }
}
