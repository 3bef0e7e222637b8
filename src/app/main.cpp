// clothsim: runs a cloth scene (see --help).
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "app/backend.h"
#include "app/headless_render.h"
#include "app/options.h"
#include "app/scene_list.h"
#include "app/simulation.h"
#include "core/error.h"

int main(int argc, char** argv) {
    try {
        const cloth::Options options =
            cloth::parseOptions(std::vector<std::string>(argv + 1, argv + argc));
        if (options.help) {
            std::cout << cloth::usageText();
            return 0;
        }
        if (options.listDevices) {
            cloth::listDevices(std::cout);
            return 0;
        }
        if (options.listScenes) {
            cloth::listScenes(std::cout, cloth::findSceneFolder());
            return 0;
        }
        // Window, offscreen rendering or the plain headless run (src/app/headless_render.h).
        return cloth::runClothsim(options, argc == 1, std::cout, std::cerr);
    } catch (const cloth::Error& e) {
        std::cerr << "clothsim: error: " << e.what() << "\n";
        return 1;
    } catch (const std::bad_alloc&) {
        std::cerr << "clothsim: error: out of memory (a scene too large for this machine?)\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "clothsim: internal error: " << e.what() << "\n";
        return 1;
    }
}
