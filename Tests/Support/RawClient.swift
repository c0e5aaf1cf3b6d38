import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking TCP client for tests: sends raw bytes and reads raw responses, with a receive timeout.
public final class RawClient {
    public let fd: Int32
    private var buffer: [UInt8] = []

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public init(port: Int, timeout: Double = 5) throws {
        // `self.fd` is set last: once every stored property is set, a throw runs `deinit`, which would
        // close the descriptor a second time (by then its number may belong to another test's socket).
        #if canImport(Darwin)
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "connect failed: \(code)")
        }
        var interval = timeval(
            tv_sec: Int(timeout), tv_usec: .init((timeout - Double(Int(timeout))) * 1_000_000))
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        self.fd = fd
    }

    deinit {
        close(fd)
    }

    public func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    public func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                #if canImport(Darwin)
                    Darwin.send(fd, raw.baseAddress! + sent, raw.count - sent, 0)
                #else
                    Glibc.send(fd, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                #endif
            }
            guard count > 0 else { throw Failure(description: "send failed: \(errno)") }
            sent += count
        }
    }

    public func shutdownWrite() {
        #if canImport(Darwin)
            _ = shutdown(fd, SHUT_WR)
        #else
            _ = shutdown(fd, Int32(SHUT_WR))
        #endif
    }

    /// Reads more bytes into the buffer; returns false at end of stream, throws on timeout or reset.
    @discardableResult
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        let code = errno
        if count > 0 {
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
        if count == 0 { return false }
        if code == ECONNRESET { throw Failure(description: "connection reset") }
        throw Failure(description: "read failed or timed out: errno \(code)")
    }

    /// Whether bytes (or the end of the stream) are waiting on `fd`, without waiting for them. Takes
    /// the descriptor rather than the client, so that another thread may ask.
    public static func hasInputWaiting(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Reads until the peer closes; returns everything received.
    public func readToEnd() throws -> [UInt8] {
        while try fill() {}
        defer { buffer.removeAll() }
        return buffer
    }

    /// Whether the peer closed (EOF) with nothing more to read; throws on reset.
    public func isClosedByPeer() throws -> Bool {
        if !buffer.isEmpty { return false }
        return try !fill()
    }

    /// Reads one response (head plus Content-Length or chunked body; no body for HEAD or 1xx/204/304).
    public func readResponse(isHead: Bool = false) throws -> RawResponse {
        let headEnd = try readUntil(Array("\r\n\r\n".utf8))
        let headBytes = Array(buffer[0..<headEnd])
        buffer.removeFirst(headEnd + 4)
        let headText = String(decoding: headBytes, as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw Failure(description: "bad status line: \(statusLine)")
        }
        var headers: [(String, String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(
                (
                    String(line[..<colon]),
                    line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                ))
        }
        var response = RawResponse(status: status, statusLine: statusLine, headers: headers, body: [])
        if isHead || (100..<200).contains(status) || status == 204 || status == 304 { return response }
        if let length = response.header("Content-Length").flatMap(Int.init) {
            // A negative length would trap at `buffer[0..<length]`, ending the whole test process.
            guard length >= 0 else { throw Failure(description: "bad Content-Length: \(length)") }
            while buffer.count < length {
                guard try fill() else { throw Failure(description: "EOF inside body") }
            }
            response.body = Array(buffer[0..<length])
            buffer.removeFirst(length)
        } else if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while true {
                let lineEnd = try readUntil([13, 10])
                let sizeText = String(decoding: buffer[0..<lineEnd], as: UTF8.self)
                // A negative size (or one that overflows `size + 2`) would trap below.
                guard let size = Int(sizeText, radix: 16), size >= 0, size < Int.max - 2 else {
                    throw Failure(description: "bad chunk size")
                }
                buffer.removeFirst(lineEnd + 2)
                response.chunkCount += size > 0 ? 1 : 0
                while buffer.count < size + 2 {
                    guard try fill() else { throw Failure(description: "EOF inside chunk") }
                }
                response.body.append(contentsOf: buffer[0..<size])
                buffer.removeFirst(size + 2)
                if size == 0 { break }
            }
        } else {
            response.body = try readToEnd()
        }
        return response
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        var searchFrom = 0
        while true {
            if buffer.count >= marker.count {
                for index in searchFrom...(buffer.count - marker.count)
                where buffer[index..<index + marker.count].elementsEqual(marker) {
                    return index
                }
                searchFrom = buffer.count - marker.count + 1
            }
            guard try fill() else { throw Failure(description: "EOF before \(marker)") }
        }
    }
}

/// A response as read off the wire.
public struct RawResponse: Sendable {
    public var status: Int
    public var statusLine: String
    public var headers: [(String, String)]
    public var body: [UInt8]
    public var chunkCount = 0

    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
}
