import CourierOpenAPI
import CourierPrimitives
import Foundation
import MockServer

extension ResponseBuilder {
    /// A refusal whose status declares only text: the problems as a line of `text/plain` (or the declared
    /// text type), when the declared schema takes that string; else the refusal as it is.
    func textRefusal(_ refusal: Refusal, _ content: [String: JSONValue], _ response: ServerResponse)
        -> ServerResponse
    {
        guard let type = content.keys.sorted().first(where: { MediaTypes.essence($0).hasPrefix("text/") })
        else { return response }
        let text = "\(refusal.status): " + refusal.problems.map(\.sentence).joined(separator: "; ")
        if let schema = content[type]?["schema"], !validator.isValid(.string(text), against: schema) {
            return response
        }
        var response = response
        response.headers.remove(name: "Content-Type")
        response.headers.add(name: "Content-Type", value: concrete(type))
        response.body = .data(Data(text.utf8))
        return response
    }
}
