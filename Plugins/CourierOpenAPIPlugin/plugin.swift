import Foundation
import PackagePlugin

/// Generates a target's API declarations at build time from the OpenAPI document in its folder
/// (`openapi.yaml`, `openapi.yml` or `openapi.json`), as `courier-openapi.json` beside it says.
@main
struct CourierOpenAPIPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let inputs = try PluginInputs(target: target)
        let output = context.pluginWorkDirectoryURL.appending(path: "\(target.name)+OpenAPI.swift")
        return [
            .buildCommand(
                displayName:
                    "Generating \(target.name)'s declarations from \(inputs.document.lastPathComponent)",
                executable: try context.tool(named: "CourierOpenAPIGenerator").url,
                arguments: [inputs.document.path, inputs.configuration.path, output.path],
                inputFiles: [inputs.document, inputs.configuration],
                outputFiles: [output])
        ]
    }
}

/// A target's document and settings.
struct PluginInputs {
    static let documents = ["openapi.yaml", "openapi.yml", "openapi.json"]
    static let configuration = "courier-openapi.json"

    var document: URL
    var configuration: URL

    init(target: SourceModuleTarget) throws {
        let files = target.sourceFiles.map(\.url)
        let found = files.filter { Self.documents.contains($0.lastPathComponent) }
        guard found.count == 1, let document = found.first else {
            throw PluginFailure(
                "\(target.name): Courier's OpenAPI plugin needs one of \(Self.documents.joined(separator: ", ")) "
                    + "in the target's folder, found \(found.count)")
        }
        guard let configuration = files.first(where: { $0.lastPathComponent == Self.configuration }) else {
            throw PluginFailure(
                "\(target.name): Courier's OpenAPI plugin needs \(Self.configuration) beside \(document.lastPathComponent), "
                    + "such as {\"access\": \"public\"}")
        }
        self.document = document
        self.configuration = configuration
    }
}

struct PluginFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
