import CourierPrimitives
import Foundation
import Testing

@testable import CourierOpenAPI

/// Loading documents: references local and to other files, cycles, versions, and invalid documents
/// refused with the pointer of each problem.
@Suite struct DocumentLoadingTests {
    /// A folder of files for one test, removed after it.
    final class Folder {
        let url: URL
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent(
                "openapi-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        @discardableResult func write(_ path: String, _ text: String) throws -> URL {
            let file = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
            return file
        }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    static let header = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\n"

    @Test func localReferencesWithEscapes() throws {
        let document = try OpenAPIDocument.parse(
            Data(
                (Self.header
                    + """
                    paths:
                      /pets/{id}:
                        get:
                          parameters: [{$ref: '#/components/parameters/Pet%20Id'}]
                          responses:
                            '200': {$ref: '#/paths/~1shared/get/responses/200'}
                      /shared:
                        get:
                          responses:
                            '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}
                    components:
                      parameters:
                        Pet Id: {name: id, in: path, required: true, schema: {type: integer}}
                      schemas:
                        Pet: {type: object, properties: {next: {$ref: '#/components/schemas/Pet'}}}
                    """).utf8))
        #expect(document.version == .v3_0)
        let operation = try #require(document.operations.first { $0.path == "/pets/{id}" })
        #expect(operation.parameters.map(\.name) == ["id"])
        #expect(operation.parameters.first?.location == .path)
        #expect(operation.responses["200"]?["description"] == .string("ok"))
        let schema = document.resolve(
            operation.responses["200"]?["content"]?["application/json"]?["schema"] ?? .null)
        #expect(schema["properties"]?["next"]?["$ref"] == .string("#/components/schemas/Pet"))
        #expect(document.operations.count == 2)
    }

    @Test func referencesToOtherFilesAreRewrittenAndFollowed() throws {
        let folder = try Folder()
        try folder.write(
            "schemas/pet.yaml",
            "Pet:\n  type: object\n  properties:\n    owner: {$ref: 'owner.json#/Owner'}\n    tag: {$ref: '../api.yaml#/components/schemas/Tag'}\n"
        )
        try folder.write("schemas/owner.json", #"{"Owner": {"type": "string"}}"#)
        let root = try folder.write(
            "api.yaml",
            Self.header
                + """
                paths:
                  /pets:
                    get:
                      responses:
                        '200':
                          description: ok
                          content: {application/json: {schema: {$ref: 'schemas/pet.yaml#/Pet'}}}
                components:
                  schemas:
                    Tag: {type: string}
                """)
        let document = try OpenAPIDocument.load(from: root)
        let reference = document.operations[0].responses["200"]?["content"]?["application/json"]?["schema"]
        #expect(reference?["$ref"] == .string("schemas/pet.yaml#/Pet"))
        let pet = document.resolve(reference ?? .null)
        #expect(pet["properties"]?["owner"]?["$ref"] == .string("schemas/owner.json#/Owner"))
        #expect(pet["properties"]?["tag"]?["$ref"] == .string("#/components/schemas/Tag"))
        #expect(
            document.resolve(pet["properties"]?["owner"] ?? .null) == .object(["type": .string("string")]))
        #expect(Set(document.files.keys) == ["schemas/pet.yaml", "schemas/owner.json"])
    }

    @Test func schemasAreReferencedByIdAndAnchorIn31() throws {
        let document = try OpenAPIDocument.parse(
            Data(
                """
                openapi: 3.1.0
                info: {title: T, version: '1'}
                components:
                  schemas:
                    Details:
                      $id: /schemas/details
                      type: object
                      properties:
                        id: {type: integer, $anchor: detail_id}
                    Pet:
                      properties:
                        details: {$ref: /schemas/details}
                        detailId: {$ref: '/schemas/details#detail_id'}
                        inner: {$ref: '/schemas/details#/properties/id'}
                """.utf8))
        let pet = document.root["components"]?["schemas"]?["Pet"]?["properties"]
        #expect(pet?["details"]?["$ref"] == .string("#/components/schemas/Details"))
        #expect(pet?["detailId"]?["$ref"] == .string("#/components/schemas/Details/properties/id"))
        #expect(pet?["inner"]?["$ref"] == .string("#/components/schemas/Details/properties/id"))
        #expect(document.resolve(pet?["detailId"] ?? .null)["type"] == .string("integer"))
    }

    @Test func referenceOutsideTheFolderIsRefused() throws {
        let folder = try Folder()
        try folder.write("secret.yaml", "Secret: {type: string}\n")
        let root = try folder.write(
            "api/api.yaml",
            Self.header + "paths: {}\ncomponents:\n  schemas:\n    S: {$ref: '../secret.yaml#/Secret'}\n")
        let error = #expect(throws: OpenAPIDocumentError.self) { try OpenAPIDocument.load(from: root) }
        #expect(error?.code == .referenceOutsideRoot)
        #expect(error?.problems.first?.pointer.description == "/components/schemas/S/$ref")
        let allowed = try OpenAPIDocument.load(from: root, allowingReferencesOutsideFolder: true)
        #expect(
            allowed.resolve(allowed.root["components"]?["schemas"]?["S"] ?? .null)["type"]
                == .string("string"))
    }

    @Test func anAbsolutePathIsRefusedEvenInsideTheFolder() throws {
        let folder = try Folder()
        let schema = try folder.write("schemas.yaml", "S: {type: string}\n")
        let root = try folder.write(
            "api.yaml",
            Self.header + "paths: {}\ncomponents:\n  schemas:\n    S: {$ref: '\(schema.path)#/S'}\n")
        let error = #expect(throws: OpenAPIDocumentError.self) { try OpenAPIDocument.load(from: root) }
        #expect(error?.code == .referenceOutsideRoot)
        #expect(error?.problems.first?.pointer.description == "/components/schemas/S/$ref")
        #expect(error?.problems.first?.message.contains("absolute path") == true)
    }

    /// A YAML `null` in a type list (`type: [array, null]`, which many tools write) is read as the
    /// type `"null"`, with a warning that names the place.
    @Test func aYAMLNullInATypeListIsReadAsNullWithAWarning() throws {
        let document = try OpenAPIDocument.parse(
            Data(
                """
                openapi: 3.1.0
                info: {title: T, version: '1'}
                components:
                  schemas:
                    Tags: {type: [array, null], items: {type: string}}
                    Example: {type: object, example: {type: [null]}}
                """.utf8))
        let schemas = document.root["components"]?["schemas"]
        #expect(schemas?["Tags"]?["type"] == .array([.string("array"), .string("null")]))
        #expect(schemas?["Example"]?["example"]?["type"] == .array([.null]), "example data is left alone")
        #expect(document.warnings.map(\.pointer.description) == ["/components/schemas/Tags/type/1"])
        #expect(document.warnings.first?.message.contains("\"null\"") == true)
    }

    /// Webhooks and callbacks are kept as operations: the webhook's name or the callback's URL
    /// expression stands where a path would.
    @Test func webhooksAndCallbacksAreOperations() throws {
        let folder = ValidatorAgreementTests.folder.appendingPathComponent("valid")
        let webhooks = try OpenAPIDocument.load(from: folder.appendingPathComponent("webhooks-3.1.yaml"))
        #expect(webhooks.operations.isEmpty)
        #expect(webhooks.webhooks.map { "\($0.method) \($0.path)" } == ["POST newPet", "DELETE petGone"])
        #expect(webhooks.webhooks.first?.operationID == "newPet")
        #expect(webhooks.webhooks.last?.pointer.description == "/webhooks/petGone/delete")
        #expect(webhooks.webhooks.last?.requestBody?["content"] != nil)
        let callbacks = try OpenAPIDocument.load(from: folder.appendingPathComponent("callbacks-3.0.yaml"))
        let subscribe = try #require(callbacks.operations.first { $0.operationID == "subscribe" })
        #expect(subscribe.callbacks.keys.sorted() == ["onClose", "onEvent"])
        #expect(subscribe.callbacks["onEvent"]?.map(\.path) == ["{$request.body#/callbackUrl}"])
        #expect(subscribe.callbacks["onClose"]?.first?.responses["204"]?["description"] == .string("closed"))
        #expect(
            subscribe.callbacks["onEvent"]?.first?.pointer.description
                == "/paths/~1subscriptions/post/callbacks/onEvent/{$request.body#~1callbackUrl}/post")
    }

    @Test func referenceCyclesAndDanglingReferencesAreProblems() throws {
        let error = #expect(throws: OpenAPIDocumentError.self) {
            try OpenAPIDocument.parse(
                Data(
                    (Self.header
                        + """
                        paths: {}
                        components:
                          schemas:
                            A: {$ref: '#/components/schemas/B'}
                            B: {$ref: '#/components/schemas/A'}
                            C: {$ref: '#/components/schemas/Nowhere'}
                            D: {$ref: '#/components/schemas/~2'}
                        """).utf8))
        }
        #expect(error?.code == .invalid)
        let places = Set(error?.problems.map(\.pointer.description) ?? [])
        #expect(
            places.isSuperset(of: [
                "/components/schemas/A/$ref", "/components/schemas/B/$ref", "/components/schemas/C/$ref",
                "/components/schemas/D/$ref",
            ]))
        #expect(error?.problems.contains { $0.message.contains("cycle") } == true)
    }

    @Test func everyStructuralProblemIsReportedWithItsPointer() throws {
        let error = #expect(throws: OpenAPIDocumentError.self) {
            try OpenAPIDocument.parse(
                Data(
                    """
                    openapi: 3.0.3
                    info: {title: T}
                    paths:
                      pets:
                        get: {responses: {'200': {description: ok}}}
                      /pets/{id}:
                        get:
                          operationId: same
                          parameters:
                            - {name: id, in: path, schema: {type: integer}}
                            - {name: q, in: body, schema: {type: string}}
                          responses:
                            '200': {}
                            '99': {description: odd}
                      /owners:
                        post:
                          operationId: same
                          security: [{missing: []}]
                          requestBody: {description: no content}
                          responses: {'201': {description: made}}
                    components:
                      schemas:
                        Bad: {type: [string, 'null'], required: name}
                    """.utf8))
        }
        #expect(error?.code == .invalid)
        let places = error?.problems.map(\.pointer.description) ?? []
        let expected = [
            "/info/version", "/paths/pets", "/paths/~1pets~1{id}/get/parameters/0/required",
            "/paths/~1pets~1{id}/get/parameters/1/in", "/paths/~1pets~1{id}/get/responses/200/description",
            "/paths/~1pets~1{id}/get/responses/99", "/paths/~1pets~1{id}/get/operationId",
            "/paths/~1owners/post/security/0/missing", "/paths/~1owners/post/requestBody/content",
            "/components/schemas/Bad/type", "/components/schemas/Bad/required",
        ]
        for place in expected { #expect(places.contains(place), "\(place) in \(places)") }
        #expect(error?.description.contains("#/paths/~1pets~1%7Bid%7D/get/parameters/1/in") == true)
    }

    @Test func versionsAreDetected() throws {
        let v31 = try OpenAPIDocument.parse(
            Data(#"{"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "components": {}}"#.utf8))
        #expect(v31.version == .v3_1)
        let swagger = #expect(throws: OpenAPIDocumentError.self) {
            try OpenAPIDocument.parse(Data("swagger: '2.0'\ninfo: {title: T, version: '1'}\n".utf8))
        }
        #expect(swagger?.code == .unsupportedVersion)
        let four = #expect(throws: OpenAPIDocumentError.self) {
            try OpenAPIDocument.parse(
                Data("openapi: 4.0.0\ninfo: {title: T, version: '1'}\npaths: {}\n".utf8))
        }
        #expect(four?.code == .unsupportedVersion)
    }

    @Test func syntaxErrorsCarryTheirPlace() throws {
        let yaml = #expect(throws: OpenAPIDocumentError.self) {
            try OpenAPIDocument.parse(Data("openapi: 3.0.3\ninfo:\n  title: a\n  title: b\n".utf8))
        }
        #expect(yaml?.code == .syntax)
        #expect(yaml?.line == 4)
        let json = #expect(throws: OpenAPIDocumentError.self) {
            try OpenAPIDocument.parse(Data("{\n  \"openapi\": 3.0.3\n}".utf8))
        }
        #expect(json?.code == .syntax)
        #expect(json?.line == 2)
        let missing = #expect(throws: OpenAPIDocumentError.self) {
            try OpenAPIDocument.load(from: URL(fileURLWithPath: "/nonexistent/openapi.yaml"))
        }
        #expect(missing?.code == .unreadable)
    }
}
