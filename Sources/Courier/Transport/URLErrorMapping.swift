import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Maps Foundation's URL loading errors to Courier codes.
public enum URLErrorMapping {
    /// The Courier code for a `URLError` code.
    public static func code(for code: URLError.Code) -> CourierError.Code {
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
        case .badURL, .unsupportedURL: .invalidURL
        case .fileDoesNotExist, .noPermissionsToReadFile, .requestBodyStreamExhausted: .invalidBody
        case .cannotCreateFile, .cannotOpenFile, .cannotWriteToFile, .cannotMoveFile, .cannotRemoveFile:
            .fileWriteFailed
        default: .connectionLost
        }
    }

    /// `error` as a `CourierError` for `request`.
    public static func courierError(for error: any Error, request: URLRequest?) -> CourierError {
        if let courierError = error as? CourierError { return courierError }
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else {
            return CourierError(
                .connectionLost, "\(error.localizedDescription)", request: request, underlying: error)
        }
        let mapped = URLError.Code(rawValue: nsError.code).map { Self.code(for: $0) } ?? .connectionLost
        return CourierError(
            mapped, "\(nsError.localizedDescription) (URLError \(nsError.code))", request: request,
            underlying: error)
    }
}
