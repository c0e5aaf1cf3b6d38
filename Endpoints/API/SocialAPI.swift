import Courier
import CourierContract
import CourierContractModel
import CourierPrimitives
import Foundation

/// A group of the social API's endpoints: errors answer with an `APIErrorBody`.
public protocol SocialAPIGroup: API {}

extension SocialAPIGroup {
    public static var errorSchema: Schema? { .of(APIErrorBody.self) }
}

/// The social API: every group's operations, in order.
public enum SocialAPI {
    /// Its groups, in order.
    public static let groups: [any SocialAPIGroup.Type] = [
        OnboardingEndPoint.self, PostsEndPoint.self, TweetsEndPoint.self, UploadEndPoint.self,
    ]

    /// One sample call of every operation.
    public static var samples: [any EndpointDescribing] { groups.flatMap { $0.samples } }

    /// Every operation, derived from the declarations.
    public static let operations: [APIOperation] = samples.map(\.operation)

    /// The operation with this id, such as `posts.page`.
    public static func operation(id: String) -> APIOperation? {
        operations.first { $0.id == id }
    }

    /// The title of its OpenAPI document.
    public static let title = "Courier social API"
    /// The description of its OpenAPI document.
    public static let description =
        "The social backend the Endpoints enums call and the Courier mock server implements."

    /// The OpenAPI 3.1 document of the social API.
    public static func openAPI(serverURL: URL? = nil) -> JSONValue {
        OpenAPIWriter.make(
            title: title, description: description, operations: operations, serverURL: serverURL)
    }
}
