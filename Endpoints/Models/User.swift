import Foundation

/// A registered user of the social API.
public struct User: Codable, Sendable, Hashable, Identifiable {
    /// The server-assigned id, such as `u-000001`.
    public var id: String
    /// The display name.
    public var name: String
    /// The sign-in email address.
    public var email: String
    /// Where the profile image can be downloaded, once one was uploaded.
    public var profileImageURL: URL?
    /// When the account was created.
    public var createdAt: Date

    /// Creates a user.
    public init(id: String, name: String, email: String, profileImageURL: URL? = nil, createdAt: Date) {
        self.id = id
        self.name = name
        self.email = email
        self.profileImageURL = profileImageURL
        self.createdAt = createdAt
    }
}
