"""XML export."""

import xml.etree.ElementTree as ET

from .tabular import record_to_dict


def write_xml(records, path):
    """Write *records* to *path* as ``<requests>`` of ``<request>``.

    Each field becomes an attribute; missing values are left out.
    Return the number of records written.
    """
    root = ET.Element("requests")
    for record in records:
        attributes = {name: str(value)
                      for name, value in record_to_dict(record).items()
                      if value is not None}
        ET.SubElement(root, "request", attributes)
    tree = ET.ElementTree(root)
    ET.indent(tree)
    tree.write(path, encoding="utf-8", xml_declaration=True)
    return len(root)
