import CourierPrimitives
import Endpoints
import Foundation
import Testing

@testable import CourierOpenAPI

@Suite struct DeclarationGeneratorTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/OpenAPI")

    static func features() throws -> (CourierOpenAPI.OpenAPIDocument, GeneratedDeclarations) {
        let document = try CourierOpenAPI.OpenAPIDocument.load(
            from: fixtures.appendingPathComponent("generate/features.yaml"))
        return (document, try DeclarationGenerator.generate(document))
    }

    @Test func modelsFollowTheSchemas() throws {
        let models = try #require(try Self.features().1.files["Models.swift"])
        // allOf flattened into one struct; required properties first; optional for the rest.
        #expect(
            models.contains(
                "struct Pet: Codable, Sendable {\n    var name: String\n    var nickname: String?\n    var id: Int64\n"
            ))
        // A name that is not a Swift identifier gets a CodingKey.
        #expect(models.contains("    var xRating: Double?\n"))
        #expect(models.contains(#"        case xRating = "x-rating""#))
        // A string enum, declared once even where allOf copies the property.
        #expect(models.contains("enum NewPetKind: String, Codable, Sendable, CaseIterable {"))
        #expect(models.contains(#"    case guineaPig = "guinea-pig""#))
        #expect(!models.contains("enum PetKind"))
        // oneOf as an enum with a case per branch.
        #expect(
            models.contains(
                "enum Shape: Codable, Sendable {\n    case circle(Circle)\n    case square(Square)\n"))
        // A model that holds itself is a final class.
        #expect(models.contains("final class Tree: Codable, Sendable {"))
        // Rules the types do not say are the model's propertySchemas.
        #expect(models.contains(#""name": .string(.init(minLength: 1, maxLength: 50))"#))
    }

    @Test func operationsBecomeStaticFunctionsWithTypedParameters() throws {
        let generated = try Self.features().1
        let pets = try #require(generated.files["PetsAPI.swift"])
        #expect(pets.contains("enum PetsAPI: API {"))
        #expect(
            pets.contains("static func listPets(limit: Int? = nil, xRequestId: UUID) -> Endpoint<[Pet]> {"))
        #expect(
            pets.contains(
                #"Query("limit", limit, .integer(minimum: 1, maximum: 100), default: 20, "How many")"#))
        #expect(pets.contains(#"Header("X-Request-Id", xRequestId)"#))
        // The document's statuses, each of them and no other.
        #expect(pets.contains(#"endpoint(.post, "/pets", "Add a pet", status: 201, errors: [400]) {"#))
        #expect(pets.contains(#"endpoint(.get, "/pets/{petId}", "One pet", errors: [400, 404]) {"#))
        let drawing = try #require(generated.files["DrawingAPI.swift"])
        #expect(
            drawing.contains(
                #"endpoint(.put, "/trees/{id}", "Plant a tree", auth: true, errors: [400, 401]) {"#))
        let untagged = try #require(generated.files["PetFeaturesAPI.swift"])
        #expect(
            untagged.contains(
                #"MultipartFile("file", file, contentType: contentType, accepted: ["image/png", "image/jpeg"])"#
            ))
        #expect(
            generated.files["PetFeaturesDocument.swift"]?.contains(
                "static func openAPI(serverURL: URL? = nil) -> JSONValue") == true)
    }

    @Test func whatCannotBeDeclaredIsReportedWithItsPointer() throws {
        let (document, generated) = try Self.features()
        let reported = Dictionary(
            generated.undeclared.filter { !$0.isDocumentation }.map { ($0.pointer, $0.reason) },
            uniquingKeysWith: { a, _ in a })
        #expect(reported["/paths/~1pets/get/parameters/1"] == "cookie parameters are not declared")
        #expect(reported["/components/schemas/NewPet/properties/tags/minItems"]?.contains("minItems") == true)
        #expect(
            reported["/components/schemas/NewPet/properties/nickname"]?.contains("declared optional") == true)
        #expect(reported["/components/schemas/Shape/oneOf"] == nil, "a oneOf is declared with every branch")
        #expect(
            reported["/paths/~1pets/get/operationId"]
                == "operation ids are derived from the group and the function: declared as pets.listPets")
        #expect(reported["/paths/~1pets/get/responses"] == nil, "no status is added to the document's")
        // Every pointer names a place in the document.
        for feature in generated.undeclared {
            let pointer = try JSONPointer(parsing: feature.pointer)
            #expect(pointer.resolve(in: document.root) != nil, "\(feature)")
        }
    }

    /// Constructs of published documents that the generator once lost or turned into code that does
    /// not compile (`scripts/corpus-check.sh` found them).
    @Test func whatPublishedDocumentsSayIsKept() throws {
        let document = try CourierOpenAPI.OpenAPIDocument.load(
            from: Self.fixtures.appendingPathComponent("generate/corpus-gaps.yaml"))
        let generated = try DeclarationGenerator.generate(document)
        let articles = try #require(generated.files["ArticlesAPI.swift"])
        // A function is lowerCamelCase: named `UpdateArticle`, it would hide the model of that name.
        #expect(
            articles.contains(
                "static func updateArticle(slug: String, body: UpdateArticle) -> Endpoint<Article>"))
        // A media range whose schema is an object is decoded as that object, under its media type.
        #expect(articles.contains(#"contentType: "*/*""#))
        // The format of array items given by a referenced schema is the property's schema.
        let models = try #require(generated.files["Models.swift"])
        #expect(models.contains(#""dates": .array(.string(.init(format: "date")))"#))
        // `url`, which is not `uri`, is kept as it is written.
        #expect(models.contains(#""link": .string(.init(format: "url"))"#))
        // An error with no body beside one with the group's error model is declared without it.
        #expect(articles.contains("errors: [422], emptyErrors: [401]"))
    }

    @Test func theSocialAPIsOwnDocumentIsDeclaredWhole() throws {
        let document = try CourierOpenAPI.OpenAPIDocument.parse(
            SocialAPI.openAPI().prettyData(), url: URL(fileURLWithPath: "social.json"))
        let generated = try DeclarationGenerator.generate(document)
        #expect(generated.undeclared.isEmpty, "\(generated.undeclared)")
        #expect(
            Set(generated.files.keys) == [
                "Models.swift", "OnboardingAPI.swift", "PostsAPI.swift", "TweetsAPI.swift", "UploadAPI.swift",
                "CourierSocialAPIDocument.swift",
            ])
        #expect(
            generated.files["PostsAPI.swift"]?.contains(
                "static var errorSchema: Schema? { .of(APIErrorBody.self) }") == true)
    }
}
