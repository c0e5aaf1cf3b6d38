import Foundation

/// What storing a video returns.
public struct StoredVideo: Codable, Sendable, Hashable {
    /// The file name under `Videos/`.
    public var name: String
    /// Its size in bytes.
    public var size: Int64
    /// Its entity tag, for `If-None-Match` revalidation.
    public var etag: String
    /// Where it can be downloaded (with Range support).
    public var downloadURL: URL

    /// Creates a stored-video description.
    public init(name: String, size: Int64, etag: String, downloadURL: URL) {
        self.name = name
        self.size = size
        self.etag = etag
        self.downloadURL = downloadURL
    }
}

/// A stored video's download URL (`PostsRequest.getPostsVideoURL`).
public struct VideoLink: Codable, Sendable, Hashable {
    /// The file name under `Videos/`.
    public var name: String
    /// Where it can be downloaded.
    public var url: URL

    /// Creates a link.
    public init(name: String, url: URL) {
        self.name = name
        self.url = url
    }
}

/// The JSON body of every error response from the social backend.
public struct APIErrorBody: Codable, Sendable, Hashable {
    /// A short machine-readable code, such as `bad_request` or `unauthorized`.
    public var error: String
    /// What went wrong, for people.
    public var message: String
    /// The parameter that broke the contract, for a 400.
    public var parameter: String?

    /// Creates an error body.
    public init(error: String, message: String, parameter: String? = nil) {
        self.error = error
        self.message = message
        self.parameter = parameter
    }
}
