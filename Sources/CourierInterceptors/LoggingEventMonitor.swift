import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An event monitor that writes one line per event, with secrets redacted.
///
/// ```swift
/// let manager = NetworkManager(transport: transport, eventMonitors: [LoggingEventMonitor()])
/// // → GET https://api.example.com/notes?token=<redacted> (attempt 1)
/// // ← 200 GET https://api.example.com/notes?token=<redacted> 12 ms, 512 bytes
/// ```
public struct LoggingEventMonitor: EventMonitor {
    private let write: @Sendable (String) -> Void
    /// Whether each request is also written as a redacted `curl` command.
    package let includeCURL: Bool

    /// Creates a logger.
    /// - Parameters:
    ///   - includeCURL: also write each request as a redacted `curl` command.
    ///   - write: where lines go; `nil` (the default) writes them to standard error.
    public init(includeCURL: Bool = false, write: (@Sendable (String) -> Void)? = nil) {
        self.includeCURL = includeCURL
        self.write = write ?? LoggingEventMonitor.standardError
    }

    /// Writes a line to standard error.
    @Sendable static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// The line for an event.
    package static func line(for event: NetworkEvent) -> String {
        switch event {
        case .requestSent(let request, let attempt):
            return "→ \(describe(request)) (attempt \(attempt))"
        case .responseReceived(let request, let response):
            var details: [String] = []
            if let total = response.timings.total { details.append("\(Int((total * 1000).rounded())) ms") }
            switch response.body {
            case .data(let data): details.append("\(data.count) bytes")
            case .file(let url, let count): details.append("\(count) bytes to \(url.path)")
            case .stream: details.append("streaming")
            }
            return "← \(response.status) \(describe(request)) " + details.joined(separator: ", ")
        case .retrying(let attempt, let delay):
            return "↻ retrying, attempt \(attempt) in \(String(format: "%.2f", delay.timeInterval)) s"
        case .failed(let error):
            return "✗ \(error.description)"
        }
    }

    /// Writes the event's line (and the `curl` command for sent requests when asked).
    public func handle(_ event: NetworkEvent) {
        write(Self.line(for: event))
        if includeCURL, case .requestSent(let request, _) = event {
            write(CURLRendering.command(for: request))
        }
    }

    private static func describe(_ request: TransportRequest) -> String {
        "\(request.method) \(Redaction.redact(url: request.url))"
    }
}
