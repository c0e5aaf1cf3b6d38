import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Maps Foundation's URL loading errors to Courier codes.
package enum URLErrorMapping {
    /// The Courier code for a `URLError` code.
    package static func code(for code: URLError.Code) -> CourierError.Code {
        switch code {
        case .cannotFindHost, .dnsLookupFailed: .cannotResolveHost
        case .cannotConnectToHost, .notConnectedToInternet, .internationalRoamingOff, .callIsActive,
            .dataNotAllowed:
            .cannotConnect
        case .timedOut: .timedOut
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired, .appTransportSecurityRequiresSecureConnection:
            .tls
        case .cancelled, .userCancelledAuthentication: .cancelled
        case .httpTooManyRedirects, .redirectToNonExistentLocation: .tooManyRedirects
        case .dataLengthExceedsMaximum: .responseTooLarge
        // Only http(s) URLs are sent, so "unsupported URL" after sending means a reply
        // that is not HTTP (libcurl's "Received HTTP/0.9").
        case .badURL: .invalidURL
        case .unsupportedURL: .connectionLost
        case .fileDoesNotExist, .noPermissionsToReadFile, .requestBodyStreamExhausted: .invalidBody
        case .cannotCreateFile, .cannotOpenFile, .cannotWriteToFile, .cannotMoveFile, .cannotRemoveFile:
            .fileWriteFailed
        // Failures on the wire, worth retrying; FoundationNetworking reports many of libcurl's
        // transient errors (a reset, an empty reply) as `unknown`.
        case .networkConnectionLost, .badServerResponse, .cannotParseResponse, .cannotDecodeRawData,
            .cannotDecodeContentData, .zeroByteResource, .resourceUnavailable, .cannotLoadFromNetwork,
            .backgroundSessionWasDisconnected, .unknown:
            .connectionLost
        // Anything else is a failure of the loading system itself; retrying will not help.
        default: .transferFailed
        }
    }

    /// A code from libcurl's error text, which FoundationNetworking on Linux passes on with
    /// `URLError.unknown` for failures it does not classify (an untrusted certificate is
    /// "SSL certificate problem: …").
    static func code(forMessage message: String) -> CourierError.Code? {
        let text = message.lowercased()
        if text.contains("certificate") || text.contains("ssl") || text.contains("tls") { return .tls }
        if text.contains("could not resolve") { return .cannotResolveHost }
        if text.contains("connection refused") || text.contains("failed to connect") { return .cannotConnect }
        if text.contains("timed out") || text.contains("timeout") { return .timedOut }
        // FoundationNetworking has libcurl decode every body and cannot turn that off: a coding
        // libcurl does not know fails the same way every time, so it is not retried.
        if text.contains("unrecognized content encoding") { return .transferFailed }
        return nil
    }

    /// The error's description and any underlying error's, joined.
    static func describe(_ error: NSError) -> String {
        var parts = [error.localizedDescription]
        for value in error.userInfo.values {
            if let text = value as? String { parts.append(text) }
            if let underlying = value as? NSError { parts.append(underlying.localizedDescription) }
        }
        return parts.joined(separator: " ")
    }

    /// `error` as a `CourierError` for `request`.
    package static func courierError(for error: any Error, request: TransportRequest?) -> CourierError {
        if let courierError = error as? CourierError { return courierError }
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else {
            return CourierError(.connectionLost, firstLine(of: nsError), request: request, underlying: error)
        }
        var mapped = URLError.Code(rawValue: nsError.code).map { Self.code(for: $0) } ?? .connectionLost
        if nsError.code == URLError.Code.unknown.rawValue || mapped == .connectionLost,
            let guessed = code(forMessage: describe(nsError))
        {
            mapped = guessed
        }
        var text = message(for: mapped, nsError)
        if describe(nsError).lowercased().contains("unrecognized content encoding") {
            text =
                "the body's Content-Encoding or Transfer-Encoding has a coding libcurl cannot decode, and "
                + "URLSessionTransport cannot take the body as it came (use CurlTransport): \(text)"
        }
        return CourierError(mapped, text, request: request, underlying: error)
    }

    /// A short message for a mapped error: a fixed phrase for the codes that say it all, and
    /// Foundation's (first line of) description for the rest, with the `URLError` number.
    static func message(for code: CourierError.Code, _ error: NSError) -> String {
        switch code {
        case .cannotResolveHost: return "could not resolve the host"
        case .cannotConnect: return "could not connect to the server"
        case .timedOut: return "timed out"
        case .cancelled: return "cancelled"
        case .tooManyRedirects: return "too many redirects"
        case .responseTooLarge: return "the response is too large"
        default:
            let text = firstLine(of: error)
            return "\(text.isEmpty ? "URL loading failed" : text) (URLError \(error.code))"
        }
    }

    private static func firstLine(of error: NSError) -> String {
        error.localizedDescription.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    }
}
