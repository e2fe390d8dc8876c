// The specialisations of one primitive object, by argument-type key (binding.h). The last one
// used is checked first: most programs call a primitive with the same types every time.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>

namespace smelt::primitives {

template <class Spec> class SpecCache {
public:
    template <class Make> const Spec &get(const std::string &key, Make &&make) {
        if (last_ && key == last_key_) return *last_;
        auto it = map_.find(key);
        if (it == map_.end()) it = map_.emplace(key, std::make_shared<const Spec>(make())).first;
        last_key_ = key;
        last_ = it->second;
        return *last_;
    }
    const Spec *last() const { return last_.get(); }

private:
    std::unordered_map<std::string, std::shared_ptr<const Spec>> map_;
    std::string last_key_;
    std::shared_ptr<const Spec> last_;
};

} // namespace smelt::primitives
