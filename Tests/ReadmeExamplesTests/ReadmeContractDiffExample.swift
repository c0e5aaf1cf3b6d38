import CourierOpenAPI
import Testing

/// Fails the calling test, listing each change, when the provider's document breaks the client.
func expectNoBreakingChange(client: OpenAPIDocument, provider: OpenAPIDocument) throws {
    let diff = try ContractDiff.compare(client: client, provider: provider)
    #expect(!diff.isBreaking, "\(diff.text)")
}
