import Foundation
import PackagePlugin

/// Writes the API declarations of each target with an OpenAPI document (`openapi.yaml`, `.yml` or
/// `.json`) and `courier-openapi.json` in its folder into that folder, as `<Target>+OpenAPI.swift`:
/// `swift package --allow-writing-to-package-directory generate-courier-openapi [--target NAME]...`.
@main
struct CourierOpenAPICommand: CommandPlugin {
    static let documents = ["openapi.yaml", "openapi.yml", "openapi.json"]
    static let configuration = "courier-openapi.json"

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        let targets = try names.isEmpty ? context.package.targets : context.package.targets(named: names)
        let generator = try context.tool(named: "CourierOpenAPIGenerator").url
        var written = 0
        for case let target as SwiftSourceModuleTarget in targets {
            let folder = target.directoryURL
            let document = Self.documents.map { folder.appending(path: $0) }.first {
                FileManager.default.fileExists(atPath: $0.path)
            }
            let configuration = folder.appending(path: Self.configuration)
            guard let document, FileManager.default.fileExists(atPath: configuration.path) else {
                if !names.isEmpty {
                    throw CommandFailure(
                        "\(target.name): no \(Self.documents.joined(separator: ", ")) with \(Self.configuration) "
                            + "in \(folder.path)")
                }
                continue
            }
            let output = folder.appending(path: "\(target.name)+OpenAPI.swift")
            let process = Process()
            process.executableURL = generator
            process.arguments = [document.path, configuration.path, output.path]
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw CommandFailure(
                    "\(target.name): the generator failed (status \(process.terminationStatus))")
            }
            print("wrote \(output.path)")
            written += 1
        }
        if written == 0 {
            throw CommandFailure("no target has an OpenAPI document and \(Self.configuration)")
        }
    }
}

struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
