import Courier
import CourierContract
import CourierTesting
import Dispatch
import Foundation

/// A post, as the manager tests send and decode it.
public struct TestPost: Codable, Sendable, Equatable {
    public var id: String
    public var likes: Int

    public init(id: String, likes: Int) {
        self.id = id
        self.likes = likes
    }
}

/// A page of posts.
public struct TestFeed: Codable, Sendable {
    public var posts: [TestPost]

    public init(posts: [TestPost]) { self.posts = posts }
}

/// A classic endpoint enum for tests that drive a manager over a `StubTransport`.
public enum TestEndpoint: APIConfigurable {
    case post(String)
    case feed
    case create(TestPost)
    case delete(String)

    public var method: HTTPMethod {
        switch self {
        case .post, .feed: .get
        case .create: .post
        case .delete: .delete
        }
    }

    public var path: EndpointPath {
        switch self {
        case .post(let id), .delete(let id): "/posts/\(id)"
        case .feed: "/feed"
        case .create: "/posts"
        }
    }

    public var parameters: any ParameterConvertible {
        switch self {
        case .create(let post): JSONBody(post)
        default: NoParameters()
        }
    }
}

/// The base URL the manager tests use: never contacted, a `StubTransport` answers.
public let testBaseURL = URL(string: "https://api.test")!  // allowed: a valid literal

/// A manager over `stub` with the test base URL and default headers.
public func makeManager(
    _ stub: StubTransport, interceptors: [any Interceptor] = [], validation: Validation = .default,
    monitors: [any EventMonitor] = [], queue: DispatchQueue = .global()
) -> NetworkManager {
    NetworkManager(
        transport: stub, baseURL: testBaseURL, interceptors: interceptors, validation: validation,
        defaultHeaders: ["Accept": "application/json", "User-Agent": "courier-tests"],
        eventMonitors: monitors,
        callbackQueue: queue)
}

/// A request body reader that gives its bytes once, then nothing: a body that cannot be replayed.
public final class OneShotReader: BodyStreamReader {
    private var data: Data?

    public init(_ data: Data) { self.data = data }

    public func read(upTo maxLength: Int) throws -> Data {
        defer { data = nil }
        return data ?? Data()
    }

    public func close() {}
}
