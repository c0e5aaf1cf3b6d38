import Courier

/// An endpoint enum whose cases each map to one operation of the `Contract`.
public protocol ContractEndpoint: APIConfigurable {
    /// The id of the operation this case performs, such as `posts.page`.
    var operationID: String { get }
    /// One sample value of every case, for the contract test and `courier call --list`.
    static var samples: [Self] { get }
}

extension ContractEndpoint {
    /// The operation this case performs, if the contract declares it.
    public var operation: APIOperation? { Contract.operation(id: operationID) }
}

/// The endpoint enums of the social API, in contract order.
public enum SocialAPI {
    /// One sample of every case of every endpoint enum.
    public static var samples: [any ContractEndpoint] {
        OnboardingEndPoint.samples + PostsEndPoint.samples + TweetsEndPoint.samples + UploadEndPoint.samples
    }
}
