import CourierContract
import CourierContractModel
import CourierPrimitives
import Endpoints
import Foundation
import Testing

@testable import CourierOpenAPI

/// The diff fixtures: `client.json` and, beside it, one provider document per change.
enum DiffFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/OpenAPI/diff")

    /// The fixture `name`, as JSON or YAML.
    static func document(_ name: String) throws -> CourierOpenAPI.OpenAPIDocument {
        let json = folder.appendingPathComponent(name + ".json")
        let file =
            FileManager.default.fileExists(atPath: json.path)
            ? json : folder.appendingPathComponent(name + ".yaml")
        return try CourierOpenAPI.OpenAPIDocument.load(from: file)
    }
}

@Suite struct ContractDiffTests {
    /// One provider document per change: the rules it must break, and the harmless ones it lists.
    struct Case: CustomTestStringConvertible, Sendable {
        var file: String
        var breaking: [String]
        var harmless: [String] = []
        var testDescription: String { file }
    }

    static let cases: [Case] = [
        .init(file: "path-removed", breaking: ["api-path-removed-without-deprecation"]),
        .init(file: "operation-removed", breaking: ["api-removed-without-deprecation"]),
        .init(
            file: "success-status-removed", breaking: ["response-success-status-removed"],
            harmless: ["response-success-status-added"]),
        .init(file: "error-status-removed", breaking: ["response-non-success-status-removed"]),
        .init(file: "required-property-removed", breaking: ["response-required-property-removed"]),
        .init(file: "property-became-optional", breaking: ["response-property-became-optional"]),
        .init(file: "property-became-nullable", breaking: ["response-property-became-nullable"]),
        .init(file: "property-type-changed", breaking: ["response-property-type-changed"]),
        .init(file: "property-format-changed", breaking: ["response-property-type-changed"]),
        .init(file: "response-body-type-changed", breaking: ["response-body-type-changed"]),
        .init(file: "new-required-parameter", breaking: ["new-required-request-parameter"]),
        .init(file: "parameter-became-required", breaking: ["request-parameter-became-required"]),
        .init(file: "parameter-type-changed", breaking: ["request-parameter-type-changed"]),
        .init(file: "parameter-enum-narrowed", breaking: ["request-parameter-enum-value-removed"]),
        .init(file: "parameter-max-decreased", breaking: ["request-parameter-max-decreased"]),
        .init(file: "parameter-removed", breaking: ["request-parameter-removed"]),
        .init(file: "new-required-property", breaking: ["new-required-request-property"]),
        .init(file: "request-property-became-required", breaking: ["request-property-became-required"]),
        .init(file: "request-property-type-changed", breaking: ["request-property-type-changed"]),
        .init(
            file: "request-property-max-length-decreased", breaking: ["request-property-max-length-decreased"]
        ),
        .init(file: "response-enum-widened", breaking: ["response-property-enum-value-added"]),
        .init(
            file: "request-media-type-changed", breaking: ["request-body-media-type-removed"],
            harmless: ["request-body-media-type-added"]),
        .init(file: "response-media-type-changed", breaking: ["response-mediatype-removed"]),
        .init(file: "security-added", breaking: ["api-security-added"]),
        .init(file: "security-changed", breaking: ["api-security-added"]),
        .init(file: "required-body-added", breaking: ["added-required-request-body"]),
        .init(file: "operation-added", breaking: [], harmless: ["endpoint-added"]),
        .init(file: "optional-parameter-added", breaking: [], harmless: ["new-optional-request-parameter"]),
        .init(
            file: "optional-response-property-added", breaking: [],
            harmless: ["response-optional-property-added"]),
        .init(file: "request-enum-widened", breaking: [], harmless: ["request-parameter-enum-value-added"]),
        .init(file: "error-status-added", breaking: [], harmless: ["response-non-success-status-added"]),
        .init(file: "path-parameter-renamed", breaking: []),
        // An optional request property is left out, never sent as null, whatever the client's document allows.
        .init(file: "request-optional-property-not-nullable", breaking: []),
        // An integer of 1...100 is an int32; an OAuth 2 access token is a bearer token.
        .init(file: "parameter-width-format", breaking: []),
        .init(file: "parameter-width-format-uint8", breaking: []),
        .init(file: "security-oauth2", breaking: []),
        .init(file: "inlined-and-3-0-nullable", breaking: []),
        // minLength, maxLength and pattern hold only for strings: on a number they limit nothing.
        .init(file: "length-rules-on-a-number", breaking: []),
        // A header parameter named Accept, Content-Type or Authorization is ignored, as OpenAPI says.
        .init(file: "ignored-header-parameters", breaking: []),
    ]

    @Test(arguments: cases)
    func eachPairReportsExactlyItsRule(_ pair: Case) throws {
        let diff = try ContractDiff.compare(
            client: DiffFixtures.document("client"), provider: DiffFixtures.document(pair.file))
        // A change to a shared model is reported once for each operation that uses it.
        #expect(Set(diff.breaking.map(\.rule)) == Set(pair.breaking), "\(diff.text)")
        #expect(Set(diff.harmless.map(\.rule)) == Set(pair.harmless), "\(diff.text)")
        #expect(diff.isBreaking == !pair.breaking.isEmpty)
        for change in diff.breaking + diff.harmless {
            #expect(change.clientPointer != nil || change.providerPointer != nil, "\(change)")
        }
    }

    @Test func everyProviderFixtureIsInTheTable() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: DiffFixtures.folder.path)
            .filter { ($0.hasSuffix(".json") || $0.hasSuffix(".yaml")) && $0 != "client.json" }
            .map { String($0.dropLast(5)) }
        #expect(Set(files) == Set(Self.cases.map(\.file)))
    }

    @Test func aChangeNamesTheOperationAndBothPointers() throws {
        let diff = try ContractDiff.compare(
            client: DiffFixtures.document("client"),
            provider: DiffFixtures.document("property-became-optional"))
        // Item is answered by four operations: each is told.
        #expect(
            diff.breaking.map(\.operation).sorted() == [
                "GET /items", "GET /items/{id}", "POST /items", "POST /items/{id}/archive",
            ])
        let change = try #require(diff.breaking.first { $0.operation == "GET /items/{id}" })
        #expect(change.clientPointer == "/components/schemas/Item/required")
        #expect(change.providerPointer == "/components/schemas/Item")
        #expect(change.message == "the response property 'name' for the status 200 became optional")
    }

    /// The social API's document, as `courier openapi` prints it, changed by `edit`.
    static func socialDocument(_ edit: (inout [String: JSONValue]) -> Void = { _ in }) throws
        -> CourierOpenAPI.OpenAPIDocument
    {
        guard case .object(var document) = SocialAPI.openAPI() else { throw SocialDocumentNotAnObject() }
        edit(&document)
        return try CourierOpenAPI.OpenAPIDocument.parse(
            JSONValue.object(document).prettyData(), url: URL(fileURLWithPath: "social.json"))
    }

    struct SocialDocumentNotAnObject: Error {}

    @Test func theSocialAPIAgainstItsOwnDocumentHasNoDifference() throws {
        let diff = try ContractDiff.compare(client: Self.socialDocument(), provider: Self.socialDocument())
        #expect(diff.breaking.isEmpty, "\(diff.text)")
        #expect(diff.harmless.isEmpty, "\(diff.text)")
        #expect(diff.text == "no difference")
    }

    @Test func theSocialAPIAfterAProviderChangeIsBroken() throws {
        let provider = try Self.socialDocument { document in
            guard case .object(var components) = document["components"],
                case .object(var schemas) = components["schemas"],
                case .object(var post) = schemas["Post"], case .array(let required) = post["required"]
            else { return }
            post["required"] = .array(required.filter { $0 != .string("likes") })
            schemas["Post"] = .object(post)
            components["schemas"] = .object(schemas)
            document["components"] = .object(components)
        }
        let diff = try ContractDiff.compare(client: Self.socialDocument(), provider: provider)
        #expect(!diff.breaking.isEmpty)
        #expect(diff.breaking.allSatisfy { $0.rule == "response-property-became-optional" })
        #expect(
            diff.breaking.contains { $0.operation == "GET /posts/{postId}" && $0.message.contains("'likes'") }
        )
    }

    @Test func theRenderingsCarryEveryChange() throws {
        let diff = try ContractDiff.compare(
            client: DiffFixtures.document("client"), provider: DiffFixtures.document("success-status-removed")
        )
        #expect(diff.text.contains("breaking (1):"))
        #expect(diff.text.contains("[response-success-status-removed]"))
        #expect(diff.text.contains("harmless (1):"))
        let breaking = try #require(diff.json["breaking"])
        guard case .array(let entries) = breaking else {
            Issue.record("breaking is not an array")
            return
        }
        #expect(entries.first?["rule"] == .string("response-success-status-removed"))
        #expect(entries.first?["operation"] == .string("GET /items/{id}"))
    }
}
