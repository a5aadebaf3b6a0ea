//! The entity linker for the Write page and the alert editor: the catalogue the server hands out
//! is compiled once (`loadLinkCatalogue`), then each text is linked as the writer types
//! (`linkText`). The compiled catalogue is kept in the module, as building it per keystroke would
//! cost more than linking.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

use super::{from_js, to_js};
use crate::linking::{Catalogue, LinkText, Linker, Links};

thread_local! {
    static LINKER: RefCell<Option<Linker>> = const { RefCell::new(None) };
}

#[wasm_bindgen(js_name = loadLinkCatalogue)]
pub fn load_link_catalogue(
    #[wasm_bindgen(unchecked_param_type = "LinkCatalogue")] catalogue: JsValue,
) -> Result<(), JsError> {
    let catalogue: Catalogue = from_js(catalogue, "link catalogue")?;
    LINKER.with(|slot| *slot.borrow_mut() = Some(Linker::new(&catalogue)));
    Ok(())
}

/// What `text` names with the catalogue last loaded (nothing before one is).
#[wasm_bindgen(js_name = linkText, unchecked_return_type = "Links")]
pub fn link_text(
    #[wasm_bindgen(unchecked_param_type = "LinkText")] text: JsValue,
) -> Result<JsValue, JsError> {
    let text: LinkText = from_js(text, "link text")?;
    let links = LINKER.with(|slot| {
        slot.borrow()
            .as_ref()
            .map_or_else(Links::default, |linker| linker.link(&text.document()))
    });
    Ok(to_js(&links))
}
