import Courier
import CourierInterceptors
import Foundation

/// A failure of a social API service, in the categories an app shows:
/// connectivity, not found, storage, database/server, plus
/// authentication.
public struct SocialError: Error, Sendable, CustomStringConvertible {
    /// The broad kind of failure.
    public enum Category: String, Sendable, Hashable {
        /// The network: no connection, timeout, TLS, lost connection, cancelled.
        case connectivity
        /// The post, user or video does not exist (404).
        case notFound
        /// Uploading or downloading a file failed (video or image storage).
        case storage
        /// Signing in failed or the token was refused (401/403).
        case unauthorized
        /// The server or its database refused or failed the request, or the reply was unreadable.
        case server
    }

    /// The broad kind of failure.
    public var category: Category
    /// What went wrong, for people.
    public var message: String
    /// The HTTP status, when a response arrived.
    public var status: Int?
    /// The Courier error behind it, if any.
    public var underlying: CourierError?

    /// Creates an error.
    public init(_ category: Category, _ message: String, status: Int? = nil, underlying: CourierError? = nil)
    {
        self.category = category
        self.message = message
        self.status = status
        self.underlying = underlying
    }

    /// Maps any error to a category; `storage` marks calls that move files.
    ///
    /// - Parameters:
    ///   - error: the error thrown by `NetworkManager` (or anything else).
    ///   - storage: whether the failed call was a file upload or download.
    public init(_ error: any Error, storage: Bool = false) {
        if let social = error as? SocialError {
            self = social
            return
        }
        guard let courier = error as? CourierError else {
            self.init(storage ? .storage : .server, "\(error)")
            return
        }
        let message = Self.serverMessage(courier) ?? courier.message
        switch courier.category {
        case .transport:
            self.init(.connectivity, message, underlying: courier)
        case .unacceptableStatus where courier.status == 404:
            self.init(.notFound, message, status: 404, underlying: courier)
        case .unacceptableStatus where courier.status == 401 || courier.status == 403:
            self.init(.unauthorized, message, status: courier.status, underlying: courier)
        case .invalidRequest where courier.code == .authenticationFailed:
            self.init(.unauthorized, message, underlying: courier)
        default:
            self.init(storage ? .storage : .server, message, status: courier.status, underlying: courier)
        }
    }

    /// The `message` of the server's JSON error body, when there is one.
    static func serverMessage(_ error: CourierError) -> String? {
        guard let body = error.body, let decoded = try? JSONDecoder().decode(APIErrorBody.self, from: body)
        else {
            return nil
        }
        return decoded.message
    }

    public var description: String {
        "\(category.rawValue)\(status.map { " (\($0))" } ?? ""): \(message)"
    }
}

extension SocialError: LocalizedError {
    public var errorDescription: String? { description }
}
